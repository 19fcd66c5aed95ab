import CarrierSandbox
import CurlTransport
import Foundation
import PassgateCore
import PassgateTestSupport
import ProviderJVerification
import Testing

/// A JVerification app that names its own endpoint: with the sandbox enabled its base URL is the
/// sandbox's, and the sandbox answers on the app's path as JiGuang's login API.
@Suite("sandbox: a JVerification app's own endpoint")
struct JVerificationEndpointSandboxTests {
    static let app = JVerificationApp(
        appId: "up-shop", appKey: "up-app-key-0001", masterSecret: "up-master-secret", privateKey: TestRSAKeys.primary1024,
        endpoint: .init(baseURL: nil, path: "/login/token/verify"))

    @Test("the login goes to the configured path and is answered there: the number, then 9003 for the spent token")
    func configuredPath() async throws {
        try await withSandbox({ $0.apps.append(JVerificationEmulator().emulatedApp(Self.app)!) }) { sandbox in
            let token = try await sandbox.mint(appId: "up-shop", phone: "13900001234")
            for expected in ["8000", "9003"] {
                let call = try JVerificationProvider().phoneNumber(app: Self.app, token: token, context: CallContext(requestId: "req-up-\(expected)"))
                #expect(call.request.path == "/login/token/verify" && call.request.baseURL == nil)
                let response = try await sandbox.client.send(CurlHTTPClient.Request(
                    method: .post, url: sandbox.baseURL + call.request.path, headers: call.request.headers, body: call.request.body))
                let answer = call.interpret(CarrierHTTPReply(status: response.status, contentType: response.header("Content-Type"), body: response.body))
                #expect(answer.rawCode == expected)
                if expected == "8000" { #expect(try answer.result.get().phoneNumber == "13900001234") }
            }
        }
    }

    @Test("a sandbox without such an app does not answer on the path")
    func onlyConfiguredPaths() async throws {
        try await withSandbox { sandbox in
            let response = try await sandbox.post("/login/token/verify", Array("{}".utf8))
            #expect(response.status == 404)
        }
    }
}
