import CarrierSandbox
import CurlTransport
import Foundation
import PassgateCore
import PassgateTestSupport
import ProviderAliyun
import Testing

/// The sandbox's Alibaba Cloud endpoint, driven by Passgate's own provider over libcurl: the
/// gateway's checks answer 4xx JSON, the service's answer 200.
@Suite("sandbox: Alibaba Cloud")
struct AliyunSandboxTests {
    static let app = AliyunApp(appId: "ali-shop", accessKeyId: "LTAI-sandbox-id", accessKeySecret: "sandbox-access-secret")

    static func configure(_ configuration: inout SandboxConfiguration) {
        configuration.apps.append(AliyunEmulator().emulatedApp(app)!)
    }

    static func exchange<Value>(_ call: PreparedCall<Value>, _ sandbox: SandboxHarness) async throws -> (Int, ProviderAnswer<Value>) {
        let response = try await sandbox.client.send(CurlHTTPClient.Request(
            method: .post, url: sandbox.baseURL + call.request.path, headers: call.request.headers, body: call.request.body))
        return (response.status, call.interpret(CarrierHTTPReply(status: response.status, contentType: response.header("Content-Type"), body: response.body)))
    }

    static func context(_ clock: any PassgateClock) -> CallContext { CallContext(clock: clock, requestId: "req-ali") }

    @Test("GetMobile and VerifyMobile succeed; a used token is isv.TOKEN_INVALID; a verification token to GetMobile is unauthorized")
    func business() async throws {
        try await withSandbox(Self.configure) { sandbox in
            let token = try await sandbox.mint(appId: "ali-shop", phone: "13900001234")
            let (status, answer) = try await Self.exchange(try AliyunProvider().phoneNumber(app: Self.app, token: token, context: Self.context(sandbox.clock)), sandbox)
            #expect(status == 200 && answer.billable)
            #expect(try answer.result.get().phoneNumber == "13900001234")
            let (_, again) = try await Self.exchange(try AliyunProvider().phoneNumber(app: Self.app, token: token, context: Self.context(sandbox.clock)), sandbox)
            #expect(again.rawCode == "isv.TOKEN_INVALID" && again.result.errorCode == .tokenInvalid)
            for (number, expected) in [("13900001234", VerificationResult.match), ("13900005678", .mismatch)] {
                let code = try await sandbox.mint(appId: "ali-shop", phone: "13900001234", product: "verify")
                let (_, verified) = try await Self.exchange(
                    try AliyunProvider().verify(app: Self.app, token: code, phoneNumber: number, context: Self.context(sandbox.clock)), sandbox)
                #expect(try verified.result.get().result == expected)
            }
            let verifyToken = try await sandbox.mint(appId: "ali-shop", product: "verify")
            let (_, wrongKind) = try await Self.exchange(
                try AliyunProvider().phoneNumber(app: Self.app, token: verifyToken, context: Self.context(sandbox.clock)), sandbox)
            #expect(wrongKind.rawCode == "isv.TOKEN_UNAUTHORIZED_USED" && wrongKind.result.errorCode == .tokenWrongProduct)
        }
    }

    @Test("gateway refusals come as 4xx JSON before the token is looked at: wrong secret, unknown key, stale clock, reused nonce")
    func gateway() async throws {
        try await withSandbox(Self.configure) { sandbox in
            let token = try await sandbox.mint(appId: "ali-shop")
            let wrongSecret = AliyunApp(appId: "ali-shop", accessKeyId: Self.app.accessKeyId, accessKeySecret: "wrong")
            let (status, refused) = try await Self.exchange(try AliyunProvider().phoneNumber(app: wrongSecret, token: token, context: Self.context(sandbox.clock)), sandbox)
            #expect(status == 400 && refused.rawCode == "SignatureDoesNotMatch" && refused.result.errorCode == .signatureRejected)
            let unknown = AliyunApp(appId: "ali-shop", accessKeyId: "LTAI-unknown", accessKeySecret: "x")
            let (missingStatus, notFound) = try await Self.exchange(try AliyunProvider().phoneNumber(app: unknown, token: token, context: Self.context(sandbox.clock)), sandbox)
            #expect(missingStatus == 404 && notFound.rawCode == "InvalidAccessKeyId.NotFound")
            let stale = ManualClock(milliseconds: sandbox.clock.nowMilliseconds() - 16 * 60 * 1000)
            let (_, expired) = try await Self.exchange(try AliyunProvider().phoneNumber(app: Self.app, token: token, context: Self.context(stale)), sandbox)
            #expect(expired.rawCode == "InvalidTimeStamp.Expired" && expired.result.errorCode == .signatureRejected)
            // None of them spent the token.
            let call = try AliyunProvider().phoneNumber(app: Self.app, token: token, context: Self.context(sandbox.clock))
            #expect(try await Self.exchange(call, sandbox).1.rawCode == "OK")
            let (_, replayed) = try await Self.exchange(call, sandbox)
            #expect(replayed.rawCode == "SignatureNonceUsed" && replayed.result.errorCode == .rateLimited)
        }
    }
}
