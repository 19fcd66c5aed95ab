import CurlTransport
import Foundation
import PassgateConfig
import PassgateCore
import PassgateLiveTestSupport
import PassgateProviders
import PassgateTestSupport
import Testing

/// The sandbox is a host for any registered provider's emulator: the echo provider, registered in
/// this target only, is minted for and answered by the embedded sandbox like a built-in one.
@Suite("a plugged-in provider's emulator in the sandbox host")
struct EchoSandboxTests {
    static let secret = "echo-secret-7c21d4"

    static func configuration() throws -> PassgateConfiguration {
        let hex = { (key: String) in TestConfiguration.hash(key).map { String(format: "%02x", $0) }.joined() }
        let yaml = """
            server: {host: 127.0.0.1, port: 0}
            metrics: {port: 0}
            providers:
              echo: {baseURLs: ["http://127.0.0.1:9"], timeoutMs: 10000}
            apps:
              - {appId: "echoapp1", provider: echo, secret: "env:ECHO_SECRET"}
            clients:
              - {id: shop, apiKeySHA256: "\(hex(TestConfiguration.apiKey))", apps: ["echoapp1"]}
              - {id: shop2, apiKeySHA256: "\(hex(TestConfiguration.secondShopApiKey))", apps: ["echoapp1"]}
            sandbox: {enabled: true, port: 0}
            """
        // The registration line: the registry brings the echo provider's emulator to the sandbox too.
        let loader = ConfigurationLoader(environment: ["ECHO_SECRET": secret], registry: .builtIn.adding([EchoProvider()]))
        return try loader.load(yaml: yaml, baseDirectory: "/tmp")
    }

    @Test("a token minted by the sandbox host goes through the server and the echo emulator, once")
    func mintedTokenExchangesThroughTheEchoEmulator() async throws {
        try await withRunningPassgate(try Self.configuration()) { passgate in
            let token = try await passgate.mintToken(appId: "echoapp1", phone: "13912345670")
            let first = try await passgate.post("/v1/phone-number", ["appId": "echoapp1", "token": token])
            #expect(first.status == 200 && first.json["phoneNumber"] as? String == "13912345670", "\(first.body)")
            #expect(first.json["provider"] as? String == "echo" && first.json["carrierTaskId"] as? String == "t-" + token.suffix(6))
            // Another client's request reaches the emulator, which has spent the token.
            let spent = try await passgate.post("/v1/phone-number", ["appId": "echoapp1", "token": token], apiKey: TestConfiguration.secondShopApiKey)
            #expect(spent.status == 422 && spent.errorCode == "token_invalid", "\(spent.body)")
            #expect((spent.error["carrier"] as? [String: Any])?["code"] as? String == "9")
            #expect(try await passgate.sandboxCalls() == 2)
        }
    }

    @Test("the sandbox forces an echo code and refuses one that is not the echo's shape")
    func forcedEchoCode() async throws {
        try await withRunningPassgate(try Self.configuration()) { passgate in
            try await passgate.forceResultCode("5", provider: "echo")
            let token = try await passgate.mintToken(appId: "echoapp1", phone: "13912345670")
            let forced = try await passgate.post("/v1/phone-number", ["appId": "echoapp1", "token": token])
            #expect(forced.status == 502 && forced.errorCode == "carrier_error", "\(forced.body)")
            #expect(!forced.body.contains("13912345670"))
            let body = Array(#"{"resultCode": "E5", "provider": "echo"}"#.utf8)
            let refused = try await passgate.http.send(.init(method: .put, url: passgate.sandbox + "/sandbox/faults", headers: [("Content-Type", "application/json")], body: body))
            #expect(refused.status == 400 && refused.bodyText.contains("resultCode: must be a string of 1-8 digits"), "\(refused.bodyText)")
        }
    }
}
