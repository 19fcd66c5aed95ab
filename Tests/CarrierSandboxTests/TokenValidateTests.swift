import PassgateTestSupport
import PassgateCore
import ProviderCMCC
import CarrierSandbox
import CurlTransport
import Foundation
import OpenSSLCrypto
import Testing

/// `tokenValidate` (number verification) over real HTTP against ProviderCMCC's keyType 0 requests.
@Suite("tokenValidate")
struct TokenValidateTests {
    @Test func rightNumberIsTheOwnNumberAndAnotherIsNot() async throws {
        try await withSandbox { sandbox in
            let own = try await sandbox.verify(sandbox.verifyRequest(token: sandbox.mint(product: "verify")))
            #expect(own.resultCode == "000")
            #expect(own.taskId?.count == 32)
            let other = try await sandbox.verify(sandbox.verifyRequest(token: sandbox.mint(product: "verify"), phone: Fixtures.otherPhone))
            #expect(other.resultCode == "001")
        }
    }

    @Test func tokenWorksOnce() async throws {
        try await withSandbox { sandbox in
            let token = try await sandbox.mint(product: "verify")
            #expect(try await sandbox.verify(sandbox.verifyRequest(token: token)).resultCode == "000")
            #expect(try await sandbox.verify(sandbox.verifyRequest(token: token)).resultCode == "606")
        }
    }

    @Test func publishedVectorIsAcceptedByTheSandbox() async throws {
        let timestamp = "20180104090953788"
        try await withSandbox(clockMs: try #require(BeijingTimestamp.parse(timestamp))) { sandbox in
            let token = "STsid0000001515028196605yc1oYNTuPlTlLT10AR3ywr2WApEq14JH"
            try sandbox.sandbox.registerToken(token, appId: "300011111111", phoneNumber: "13800138000", product: .verify)
            let request = try CMCCVerifyRequest(
                appId: "300011111111", token: token, phoneNumber: "13800138000", keying: .appKey("ABCDEF0123456789"),
                msgId: "8ADFF305C7FCB3E1B1AECC130792FBD0", timestamp: timestamp
            )
            #expect(request.phoneNum == "91481A516B564965D2858954EB17B4351BB6BF649E6D1A77F2ADE4CB4CBEF4E6")
            let reply = try await sandbox.verify(request)
            #expect(reply.resultCode == "000")
        }
    }

    @Test func wrongAppKeyIsASignCheckFailure() async throws {
        try await withSandbox { sandbox in
            let token = try await sandbox.mint(product: "verify")
            let reply = try await sandbox.verify(sandbox.verifyRequest(token: token, appKey: Fixtures.secret))
            #expect(reply.resultCode == "302")
            #expect(try await sandbox.verify(sandbox.verifyRequest(token: token)).resultCode == "000")
        }
    }

    @Test func tokenOfAnotherAppFailsTheTokenCheck() async throws {
        try await withSandbox { sandbox in
            let token = try await sandbox.mint(appId: Fixtures.otherAppId, product: "verify")
            #expect(try await sandbox.verify(sandbox.verifyRequest(token: token)).resultCode == "606")
        }
    }

    @Test func loginTokenUsedForVerificationSaysItIsForLogin() async throws {
        try await withSandbox { sandbox in
            let token = try await sandbox.mint(product: "login")
            let reply = try await sandbox.verify(sandbox.verifyRequest(token: token))
            #expect(reply.resultCode == "606")
            #expect(reply.resultDesc == "token is for login")
        }
    }

    @Test func expiredTokenFailsTheTokenCheck() async throws {
        try await withSandbox { sandbox in
            let token = try await sandbox.mint(product: "verify")
            sandbox.clock.advance(milliseconds: 121_000)
            #expect(try await sandbox.verify(sandbox.verifyRequest(token: token)).resultCode == "606")
        }
    }

    @Test func duplicateMsgIdAndSkewedTimestampAreInvalidParameters() async throws {
        try await withSandbox { sandbox in
            let msgId = MessageID.make()
            #expect(try await sandbox.verify(sandbox.verifyRequest(token: sandbox.mint(product: "verify"), msgId: msgId)).resultCode == "000")
            let duplicate = try await sandbox.verify(sandbox.verifyRequest(token: sandbox.mint(product: "verify"), msgId: msgId))
            #expect(duplicate.resultCode == "102")
            #expect(duplicate.resultDesc == "duplicate msgId")
            let skewed = BeijingTimestamp.string(milliseconds: sandbox.clock.nowMilliseconds() - 360_000)
            #expect(try await sandbox.verify(sandbox.verifyRequest(token: sandbox.mint(product: "verify"), timestamp: skewed)).resultCode == "102")
        }
    }

    @Test func clientIPOutsideTheAllowListFailsTheWhitelistCheck() async throws {
        try await withSandbox({ $0.allowedClientIPs = ["203.0.113.7"] }) { sandbox in
            let reply = try await sandbox.verify(sandbox.verifyRequest(token: sandbox.mint(product: "verify")))
            #expect(reply.resultCode == "124")
        }
    }

    @Test func exhaustedQuotaIsPackageUsedUp() async throws {
        try await withSandbox({ $0.apps[0].quota = 0 }) { sandbox in
            let reply = try await sandbox.verify(sandbox.verifyRequest(token: sandbox.mint(product: "verify")))
            #expect(reply.resultCode == "102315")
        }
    }

    @Test func disabledVerificationAndUnknownAppLackTheCapability() async throws {
        try await withSandbox({ $0.apps[0].verifyEnabled = false }) { sandbox in
            let disabled = try await sandbox.verify(sandbox.verifyRequest(token: sandbox.mint(product: "verify")))
            let unknown = try await sandbox.verify(sandbox.verifyRequest(token: sandbox.mint(product: "verify"), appId: "399999999999"))
            #expect(disabled.resultCode == "103420")
            #expect(unknown.resultCode == "103420")
        }
    }

    @Test func headerAndBodyAsJSONStringsAreAccepted() async throws {
        try await withSandbox { sandbox in
            let request = try await sandbox.verifyRequest(token: sandbox.mint(product: "verify"))
            let parsed = try object(request.body)
            let header = String(decoding: json(try #require(parsed["header"] as? [String: Any])), as: UTF8.self)
            let body = String(decoding: json(try #require(parsed["body"] as? [String: Any])), as: UTF8.self)
            let response = try await sandbox.post(CMCCVerifyRequest.path, json(["header": header, "body": body]))
            let reply = try CMCCReplyParser.verify(status: response.status, contentType: response.header("Content-Type"), body: response.body, expectedMsgId: request.msgId)
            #expect(reply.resultCode == "000")
        }
    }

    @Test func parseFailureNonStringsAndKeyTypeOneAreRejected() async throws {
        try await withSandbox { sandbox in
            let garbage = try await sandbox.post(CMCCVerifyRequest.path, Array("{\"header\":".utf8))
            #expect(try resultCode(garbage.body) == "303")

            let request = try await sandbox.verifyRequest(token: sandbox.mint(product: "verify"))
            let numeric = String(decoding: request.body, as: UTF8.self).replacingOccurrences(of: #""keyType":"0""#, with: #""keyType":0"#)
            #expect(try resultCode(try await sandbox.post(CMCCVerifyRequest.path, Array(numeric.utf8)).body) == "102")

            let rsa = String(decoding: try await sandbox.verifyRequest(token: sandbox.mint(product: "verify")).body, as: UTF8.self)
                .replacingOccurrences(of: #""keyType":"0""#, with: #""keyType":"1""#)
            let reply = try object(try await sandbox.post(CMCCVerifyRequest.path, Array(rsa.utf8)).body)
            #expect((reply["header"] as? [String: Any])?["resultCode"] as? String == "102")
            #expect(((reply["body"] as? [String: Any])?["resultDesc"] as? String)?.contains("not emulated") == true)
        }
    }

    private func resultCode(_ body: [UInt8]) throws -> String? {
        (try object(body)["header"] as? [String: Any])?["resultCode"] as? String
    }
}
