import Foundation
import OpenSSLCrypto
import PassgateCLI
import PassgateConfig
import PassgateCore
import PassgateTestSupport
import Testing

/// The sign host (`passgate sign`) for a provider registered from a test target: the request is
/// the provider's own, the explanation its `+Explain.swift`, and the host names no provider.
@Suite("the sign host for a plugged-in provider")
struct ProviderSignHostTests {
    static let secret = "echo-secret-0f3a9b"

    static func host() throws -> SignHost {
        let yaml = """
            providers:
              echo: {baseURLs: ["http://127.0.0.1:9"]}
            apps:
              - {appId: "echoapp1", provider: echo, secret: "env:ECHO_SECRET"}
            """
        let loader = ConfigurationLoader.testing(environment: ["ECHO_SECRET": secret], registry: .testing.adding([EchoProvider()]))
        return SignHost(configuration: try loader.load(yaml: yaml, baseDirectory: "/"))
    }

    @Test("the echo request is the one its phoneNumber signs, explained by its own part, without the secret")
    func explainsEcho() throws {
        let signed = try Self.host().sign(appId: "echoapp1", token: "echo-token-1", phone: nil, requestId: "ref-1")
        let sig = Hex.lowercase(try Digest.hmacSHA256(key: Array(Self.secret.utf8), data: Array("echo-token-1".utf8)))
        #expect(signed.provider == EchoProvider.id)
        #expect(signed.body == #"{"app":"echoapp1","token":"echo-token-1","sig":"\#(sig)","ref":"ref-1"}"#)
        let text = signed.text(showSecrets: false)
        #expect(text.hasPrefix("POST http://127.0.0.1:9/exchange\n"))
        #expect(text.contains("signed string: echo-token-1") && text.contains("secret of 18 characters"))
        #expect(!text.contains(Self.secret))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(signed.json(showSecrets: false).utf8)) as? [String: Any])
        #expect(json["url"] as? String == "http://127.0.0.1:9/exchange" && json["operation"] as? String == "phone_number")
    }

    @Test("a call the provider refuses (echo cannot verify) is refused with its reason; an unknown app names --app-id")
    func refusals() throws {
        let host = try Self.host()
        let verify = #expect(throws: SignHost.Refusal.self) { try host.sign(appId: "echoapp1", token: "t", phone: "13912345670") }
        #expect(verify?.description.contains("cannot verify numbers") == true, "\(String(describing: verify))")
        let unknown = #expect(throws: SignHost.Refusal.self) { try host.sign(appId: "nope", token: "t", phone: nil) }
        #expect(unknown?.description.contains("--app-id nope") == true)
    }

    @Test("a provider without an explain part still signs, with every header but Content-Type masked")
    func cautiousDefault() throws {
        let request = ProviderRequest(path: "/x", headers: [("Content-Type", "application/json"), ("X-Key", "k")], body: [], msgid: "m")
        let explanation = RequestExplanation.cautious(request)
        #expect(explanation.secretHeaders == ["X-Key"] && explanation.details.isEmpty)
    }
}
