import Foundation
import Logging
import PassgateConfig
import PassgateCore
import PassgateLiveTestSupport
import PassgateTestSupport
import ProviderUmeng
import Testing

/// Umeng end to end: the REST API, libcurl (the reply's headers reach the provider) and the
/// sandbox's Umeng behind its API gateway.
@Suite("Umeng end to end")
struct UmengEndToEndTests {
    static let app = "um-shop"
    /// Shares um-shop's Marketplace AppKey with another secret: the gateway knows the pair as um-shop's.
    static let wrongSecretApp = "um-wrong-secret"
    static let secret = "UMgatewaySECRET0a1b2c"

    static func configuration() -> PassgateConfiguration {
        var configuration = TestConfiguration.make()
        configuration.apps += [
            AppSettings(provider: Umeng.providerID, settings: UmengApp(appId: app, gatewayAppKey: "204000555", gatewayAppSecret: secret)),
            AppSettings(provider: Umeng.providerID, settings: UmengApp(appId: wrongSecretApp, gatewayAppKey: "204000555", gatewayAppSecret: "not-it")),
        ]
        configuration.clients[0].apps.formUnion([app, wrongSecretApp])
        return configuration
    }

    @Test("phone number and verification through Umeng; a replay does not call it again; a spent token keeps Umeng's code; logs stay clean")
    func exchanges() async throws {
        let logs = MemoryLogSink()
        try await withRunningPassgate(Self.configuration(), logs: logs) { passgate in
            let token = try await passgate.mintToken(appId: Self.app, phone: "13900003579")
            let first = try await passgate.post("/v1/phone-number", ["appId": Self.app, "token": token])
            #expect(first.status == 200 && first.json["phoneNumber"] as? String == "13900003579" && first.json["provider"] as? String == "umeng", "\(first.body)")
            let calls = try await passgate.sandboxCalls()
            #expect(try await passgate.post("/v1/phone-number", ["appId": Self.app, "token": token]).json["replayed"] as? Bool == true)
            #expect(try await passgate.sandboxCalls() == calls)
            for (number, result) in [("13900003579", "match"), ("13900002222", "mismatch")] {
                let code = try await passgate.mintToken(appId: Self.app, phone: "13900003579", product: "verify")
                let answer = try await passgate.post("/v1/phone-number/verify", ["appId": Self.app, "token": code, "phoneNumber": number])
                #expect(answer.status == 200 && answer.json["result"] as? String == result, "\(answer.body)")
            }
            let reused = try await passgate.post("/v1/phone-number/verify", ["appId": Self.app, "token": token, "phoneNumber": "13900003579"])
            #expect(reused.errorCode == "carrier_error" && (reused.error["carrier"] as? [String: Any])?["code"] as? String == UmengEmulator.SandboxCode.tokenInvalid, "\(reused.body)")
            let undeclared = try await passgate.post("/v1/phone-number", ["appId": Self.app, "token": token, "providerFields": ["opToken": "x"]])
            #expect(undeclared.status == 400 && undeclared.error["field"] as? String == "providerFields.opToken", "\(undeclared.body)")
            let logged = logs.contents.joined(separator: "\n")
            for secret in ["13900003579", "13900002222", token, Self.secret] {
                #expect(!logged.contains(secret), "logs leak \(secret.prefix(4))…")
            }
        }
    }

    @Test("gateway refusals come through the reply's headers: a wrong secret is signature_rejected, fix_config; scripted codes and faults")
    func refusals() async throws {
        try await withRunningPassgate(Self.configuration()) { passgate in
            let token = try await passgate.mintToken(appId: Self.app)
            let refused = try await passgate.post("/v1/phone-number", ["appId": Self.wrongSecretApp, "token": token])
            #expect(refused.status == 502 && refused.errorCode == "signature_rejected" && refused.error["action"] as? String == "fix_config", "\(refused.body)")
            #expect((refused.error["carrier"] as? [String: Any])?["code"] as? String == "Invalid Signature")
            #expect(try await passgate.post("/v1/phone-number", ["appId": Self.app, "token": token]).status == 200, "the gateway refusal did not spend the token")
            try await passgate.forceResultCode("Quota Exhausted", provider: "umeng")
            let broke = try await passgate.post("/v1/phone-number", ["appId": Self.app, "token": try await passgate.mintToken(appId: Self.app)])
            #expect(broke.errorCode == "quota_exhausted" && broke.error["action"] as? String == "contact_provider", "\(broke.body)")
            try await passgate.forceResultCode("", provider: "umeng")
            for fault in ["html", "truncatedJSON"] {
                try await passgate.setFault(fault)
                let bad = try await passgate.post("/v1/phone-number", ["appId": Self.app, "token": try await passgate.mintToken(appId: Self.app, phone: "13900008642")])
                #expect(bad.status == 502 && bad.errorCode == "carrier_bad_response" && !bad.body.contains("13900008642"), "\(bad.body)")
            }
        }
    }
}
