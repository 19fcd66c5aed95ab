import Foundation
import PassgateConfig
import PassgateCore
import PassgateLiveTestSupport
import PassgateTestSupport
import ProviderGetui
import Testing

/// Getui end to end: the REST API with `providerFields.gyuid`, the gateway, libcurl and the
/// sandbox's `gy_get_pn`.
@Suite("Getui end to end")
struct GetuiEndToEndTests {
    static let app = "gy-e2e-app"
    static let masterSecret = "GYe2eMasterSecret0123456789"

    static func configuration() -> PassgateConfiguration {
        var configuration = TestConfiguration.make()
        configuration.apps.append(AppSettings(provider: Getui.providerID, settings: GetuiApp(appId: app, appSecret: "GYe2eAppSecret", masterSecret: masterSecret)))
        configuration.clients[0].apps.insert(app)
        return configuration
    }

    @Test("phone number with gyuid, a replay, a spent token and a forced code; no verification; providerFields checked before any call")
    func exchanges() async throws {
        let logs = MemoryLogSink()
        try await withRunningPassgate(Self.configuration(), logs: logs) { passgate in
            let token = try await passgate.mintToken(appId: Self.app, phone: "13900003579")
            let request: [String: Any] = ["appId": Self.app, "token": token, "providerFields": ["gyuid": "device0001"]]
            let first = try await passgate.post("/v1/phone-number", request)
            #expect(first.status == 200 && first.json["phoneNumber"] as? String == "13900003579" && first.json["provider"] as? String == "getui", "\(first.body)")
            #expect(try await passgate.post("/v1/phone-number", request).json["replayed"] as? Bool == true)
            // gyuid is not single use: another device id with the same token is still the same exchange.
            let sameToken = try await passgate.post("/v1/phone-number", ["appId": Self.app, "token": token, "providerFields": ["gyuid": "device0002"]])
            #expect(sameToken.json["replayed"] as? Bool == true, "\(sameToken.body)")
            try await passgate.forceResultCode("60008", provider: "getui")
            let refused = try await passgate.post(
                "/v1/phone-number", ["appId": Self.app, "token": try await passgate.mintToken(appId: Self.app), "providerFields": ["gyuid": "device0001"]])
            #expect(refused.status == 502 && refused.errorCode == "signature_rejected" && (refused.error["carrier"] as? [String: Any])?["code"] as? String == "60008")
            try await passgate.forceResultCode("", provider: "getui")
            let verify = try await passgate.post(
                "/v1/phone-number/verify", ["appId": Self.app, "token": "t", "phoneNumber": "13900003579", "providerFields": ["gyuid": "device0001"]])
            #expect(verify.status == 502 && verify.errorCode == "app_not_enabled", "\(verify.body)")
            let calls = try await passgate.sandboxCalls()
            let missing = try await passgate.post("/v1/phone-number", ["appId": Self.app, "token": "t"])
            #expect(missing.status == 400 && missing.error["field"] as? String == "providerFields.gyuid", "\(missing.body)")
            #expect(try await passgate.sandboxCalls() == calls)
            let logged = logs.contents.joined(separator: "\n")
            for secret in ["13900003579", token, Self.masterSecret] { #expect(!logged.contains(secret)) }
        }
    }
}
