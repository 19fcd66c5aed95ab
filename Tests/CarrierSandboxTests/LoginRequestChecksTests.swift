import PassgateTestSupport
import PassgateCore
import ProviderCMCC
import CarrierSandbox
import CurlTransport
import Foundation
import Testing

/// `loginTokenValidate`'s request checks, which come before the signature and leave the token unspent.
@Suite("loginTokenValidate request checks")
struct LoginRequestChecksTests {
    @Test(arguments: [-360_000, 360_000] as [Int64])
    func systemtimeSkewedSixMinutesFailsValidation(skewMs: Int64) async throws {
        try await withSandbox { sandbox in
            let token = try await sandbox.mint()
            let skewed = BeijingTimestamp.string(milliseconds: sandbox.clock.nowMilliseconds() + skewMs)
            let reply = try await sandbox.login(sandbox.loginRequest(token: token, systemtime: skewed))
            #expect(reply.resultCode == "103414")
            #expect(reply.desc?.contains("360 s") == true)
            // Rejected before the signature: the token survives.
            #expect(try await sandbox.login(token: token).resultCode == "103000")
        }
    }

    @Test func systemtimeInUTCInsteadOfBeijingIsRejected() async throws {
        try await withSandbox { sandbox in
            let token = try await sandbox.mint()
            let utc = BeijingTimestamp.string(milliseconds: sandbox.clock.nowMilliseconds() - BeijingTimestamp.offsetMilliseconds)
            #expect(try await sandbox.login(sandbox.loginRequest(token: token, systemtime: utc)).resultCode == "103414")
        }
    }

    @Test func duplicateMsgidIsRejected() async throws {
        try await withSandbox { sandbox in
            let first = try await sandbox.mint()
            let second = try await sandbox.mint()
            let msgid = MessageID.make()
            #expect(try await sandbox.login(sandbox.loginRequest(token: first, msgid: msgid)).resultCode == "103000")
            #expect(try await sandbox.login(sandbox.loginRequest(token: second, msgid: msgid)).resultCode == "103107")
        }
    }

    @Test func unknownAppidDoesNotExist() async throws {
        try await withSandbox { sandbox in
            let token = try await sandbox.mint()
            #expect(try await sandbox.login(token: token, appId: " 300011111111").resultCode == "103119")
        }
    }

    @Test func nonStringJSONValueIsOtherError() async throws {
        try await withSandbox { sandbox in
            let token = try await sandbox.mint()
            let request = try sandbox.loginRequest(token: token)
            let text = String(decoding: request.body, as: UTF8.self).replacingOccurrences(of: #""strictcheck":"0""#, with: #""strictcheck":0"#)
            let response = try await sandbox.post(CMCCLoginRequest.path, Array(text.utf8))
            let reply = try object(response.body)
            #expect(reply["resultCode"] as? String == "103211")
            #expect(reply["inresponseto"] as? String == request.msgid)
        }
    }

    @Test func bodyThatIsNotJSONIsOtherErrorWithEmptyEcho() async throws {
        try await withSandbox { sandbox in
            let response = try await sandbox.post(CMCCLoginRequest.path, Array("version=2.0&msgid=1".utf8))
            #expect(response.status == 200)
            #expect(response.header("Content-Type") == "application/json;charset=UTF-8")
            let reply = try object(response.body)
            #expect(reply["resultCode"] as? String == "103211")
            #expect(reply["inresponseto"] as? String == "")
            #expect((reply["systemtime"] as? String)?.count == 17)
        }
    }

    @Test func missingFieldAndWrongVersionFailValidation() async throws {
        try await withSandbox { sandbox in
            let missing = try await sandbox.post(CMCCLoginRequest.path, json(["version": "2.0", "msgid": MessageID.make()]))
            #expect(try object(missing.body)["resultCode"] as? String == "103414")
            let token = try await sandbox.mint()
            let request = try sandbox.loginRequest(token: token)
            let text = String(decoding: request.body, as: UTF8.self).replacingOccurrences(of: #""version":"2.0""#, with: #""version":"1.0""#)
            let response = try await sandbox.post(CMCCLoginRequest.path, Array(text.utf8))
            #expect(try object(response.body)["resultCode"] as? String == "103414")
        }
    }

    @Test func clientIPOutsideTheAllowListIsNotWhitelisted() async throws {
        try await withSandbox({ $0.allowedClientIPs = ["203.0.113.7"] }) { sandbox in
            let token = try await sandbox.mint()
            #expect(try await sandbox.login(token: token).resultCode == "103511")
            sandbox.sandbox.setAllowedClientIPs(["203.0.113.7", "127.0.0.1"])
            #expect(try await sandbox.login(token: token).resultCode == "103000")
        }
    }
}
