import CarrierSandbox
import CurlTransport
import Foundation
import OpenSSLCrypto
import PassgateCore
import ProviderShanyan
import Testing
import PassgateTestSupport

/// The sandbox's Shanyan server, driven by Passgate's own Shanyan provider over libcurl.
@Suite("sandbox: Shanyan")
struct ShanyanSandboxTests {
    static var key: RSAPrivateKey { TestRSAKeys.primary1024 }
    static let app = ShanyanApp(appId: "sy-app-1", appKey: "shanyanAppKey123")
    static let rsaApp = ShanyanApp(appId: "sy-app-2", appKey: "shanyanAppKey456", privateKey: key)

    static func configure(_ configuration: inout SandboxConfiguration) {
        configuration.apps += [ShanyanEmulator().emulatedApp(app)!, ShanyanEmulator().emulatedApp(rsaApp)!]
    }

    static func exchange<Value>(_ call: PreparedCall<Value>, _ sandbox: SandboxHarness) async throws -> ProviderAnswer<Value> {
        let response = try await sandbox.client.send(CurlHTTPClient.Request(
            method: .post, url: sandbox.baseURL + call.request.path, headers: call.request.headers, body: call.request.body))
        return call.interpret(CarrierHTTPReply(status: response.status, contentType: response.header("Content-Type"), body: response.body))
    }

    static let context = CallContext(requestId: "req-sy")

    @Test("login: AES and RSA numbers both decrypt; chargeStatus bills; the token is spent")
    func login() async throws {
        try await withSandbox(Self.configure) { sandbox in
            for app in [Self.app, Self.rsaApp] {
                let token = try await sandbox.mint(appId: app.appId, phone: "13900001234")
                let answer = try await Self.exchange(try ShanyanProvider().phoneNumber(app: app, token: token, context: Self.context), sandbox)
                #expect(try answer.result.get().phoneNumber == "13900001234" && answer.billable && answer.taskId != nil)
                let again = try await Self.exchange(try ShanyanProvider().phoneNumber(app: app, token: token, context: Self.context), sandbox)
                #expect(again.rawCode == "400101" && again.result.errorCode == .carrierError && !again.billable)
            }
        }
    }

    @Test("verification: match and mismatch; upper-case signs are accepted too; a wrong appKey is refused before the token is spent")
    func verifyAndSign() async throws {
        try await withSandbox(Self.configure) { sandbox in
            for (number, expected) in [("13900001234", VerificationResult.match), ("13900005678", .mismatch)] {
                let token = try await sandbox.mint(appId: Self.app.appId, phone: "13900001234", product: "verify")
                let call = try ShanyanProvider().verify(app: Self.app, token: token, phoneNumber: number, context: Self.context)
                #expect(try await Self.exchange(call, sandbox).result.get().result == expected)
            }
            let token = try await sandbox.mint(appId: Self.app.appId)
            let wrongKey = ShanyanApp(appId: Self.app.appId, appKey: "not-the-app-key")
            let refused = try await Self.exchange(try ShanyanProvider().phoneNumber(app: wrongKey, token: token, context: Self.context), sandbox)
            #expect(refused.rawCode == "400003" && refused.result.errorCode == .carrierError)
            let upper = ShanyanApp(appId: Self.app.appId, appKey: Self.app.appKey, signCase: .upper)
            #expect(try await Self.exchange(try ShanyanProvider().phoneNumber(app: upper, token: token, context: Self.context), sandbox).rawCode == "200000")
        }
    }
}
