import Foundation
import Logging
import PassgateConfig
import PassgateCore
import PassgateLiveTestSupport
import PassgateTestSupport
import ProviderTencent
import Testing

/// Tencent Cloud end to end: the REST API, the server, libcurl and the sandbox's rapidauth endpoint.
@Suite("Tencent Cloud end to end")
struct TencentEndToEndTests {
    static let app = "1400246810"
    static let appKey = "TCappKEY0a1b2c3d4e5f"

    static func configuration() -> PassgateConfiguration {
        var configuration = TestConfiguration.make()
        configuration.apps.append(AppSettings(provider: Tencent.providerID, settings: TencentApp(appId: app, appKey: appKey)))
        configuration.clients[0].apps.insert(app)
        configuration.clients[2].apps.insert(app)
        return configuration
    }

    @Test("phone number, replay, a spent token with the raw code kept, a scripted code; no verification; logs stay clean")
    func exchanges() async throws {
        let logs = MemoryLogSink()
        try await withRunningPassgate(Self.configuration(), logs: logs) { passgate in
            let token = try await passgate.mintToken(appId: Self.app, phone: "13900003579")
            let body: [String: Any] = ["appId": Self.app, "token": token, "providerFields": ["carrier": "unicom"]]
            let first = try await passgate.post("/v1/phone-number", body)
            #expect(first.status == 200 && first.json["phoneNumber"] as? String == "13900003579" && first.json["provider"] as? String == "tencent", "\(first.body)")
            let calls = try await passgate.sandboxCalls()
            // carrier is not single use: the same token with another carrier is still a replay.
            let replay = try await passgate.post("/v1/phone-number", ["appId": Self.app, "token": token, "providerFields": ["carrier": "mobile"]])
            #expect(replay.json["replayed"] as? Bool == true, "\(replay.body)")
            #expect(try await passgate.sandboxCalls() == calls)
            let spent = try await passgate.post("/v1/phone-number", ["appId": Self.app, "token": token], apiKey: TestConfiguration.secondShopApiKey)
            // Another client's request is a new exchange: the sandbox refuses the spent token.
            #expect(spent.status == 502 && spent.errorCode == "carrier_error", "\(spent.body)")
            #expect((spent.error["carrier"] as? [String: Any])?["code"] as? String == "1005")
            try await passgate.forceResultCode("1005", provider: "tencent")
            let scripted = try await passgate.post("/v1/phone-number", ["appId": Self.app, "token": try await passgate.mintToken(appId: Self.app)])
            #expect(scripted.status == 502 && scripted.errorCode == "carrier_error" && scripted.error["retryable"] as? Bool == false, "\(scripted.body)")
            #expect((scripted.error["carrier"] as? [String: Any])?["code"] as? String == "1005")
            try await passgate.forceResultCode("", provider: "tencent")
            let verify = try await passgate.post("/v1/phone-number/verify", ["appId": Self.app, "token": try await passgate.mintToken(appId: Self.app), "phoneNumber": "13900003579"])
            #expect(verify.status == 502 && verify.errorCode == "app_not_enabled", "\(verify.body)")
            let logged = logs.contents.joined(separator: "\n")
            for secret in ["13900003579", token, Self.appKey] { #expect(!logged.contains(secret), "logs leak \(secret.prefix(4))…") }
        }
    }

    @Test("providerFields: an unknown carrier or an undeclared key is a 400 naming it, before any call")
    func providerFieldsValidation() async throws {
        try await withRunningPassgate(Self.configuration()) { passgate in
            let token = try await passgate.mintToken(appId: Self.app)
            let calls = try await passgate.sandboxCalls()
            for (fields, field) in [(["carrier": "orange"], "providerFields.carrier"), (["carrier": "mobile1"], "providerFields.carrier"),
                                    (["processId": "abc"], "providerFields.processId")] {
                let answer = try await passgate.post("/v1/phone-number", ["appId": Self.app, "token": token, "providerFields": fields])
                #expect(answer.status == 400 && answer.errorCode == "invalid_request" && answer.error["field"] as? String == field, "\(answer.body)")
            }
            #expect(try await passgate.sandboxCalls() == calls)
            #expect(try await passgate.post("/v1/phone-number", ["appId": Self.app, "token": token]).status == 200)
        }
    }
}
