import Foundation
import Logging
import PassgateConfig
import PassgateCore
import PassgateLiveTestSupport
import PassgateTestSupport
import ProviderGeetest
import Testing

/// Geetest end to end: the REST API with `providerFields`, the gateway, libcurl and the sandbox's
/// OneLogin and OnePass endpoints.
@Suite("Geetest end to end")
struct GeetestEndToEndTests {
    static let app = "gt-e2e-app-0001"
    static let appKey = "GTe2eAppKey0123456789abcdefABCDE"

    static func configuration() -> PassgateConfiguration {
        var configuration = TestConfiguration.make()
        configuration.apps.append(AppSettings(provider: Geetest.providerID, settings: GeetestApp(appId: app, appKey: appKey)))
        configuration.clients[0].apps.insert(app)
        configuration.clients[2].apps.insert(app)
        return configuration
    }

    static func processId() -> String { UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased() }

    @Test("phone number and verification with processId; a replay needs the same processId; logs stay clean")
    func exchanges() async throws {
        let logs = MemoryLogSink()
        try await withRunningPassgate(Self.configuration(), logs: logs) { passgate in
            let token = try await passgate.mintToken(appId: Self.app, phone: "13900003579")
            let flow = Self.processId()
            let request: [String: Any] = ["appId": Self.app, "token": token, "providerFields": ["processId": flow]]
            let first = try await passgate.post("/v1/phone-number", request)
            #expect(first.status == 200 && first.json["phoneNumber"] as? String == "13900003579" && first.json["provider"] as? String == "geetest", "\(first.body)")
            let calls = try await passgate.sandboxCalls()
            #expect(try await passgate.post("/v1/phone-number", request).json["replayed"] as? Bool == true)
            #expect(try await passgate.sandboxCalls() == calls)
            // The same token in another flow is a new exchange, and the token is spent.
            let other = try await passgate.post("/v1/phone-number", ["appId": Self.app, "token": token, "providerFields": ["processId": Self.processId()]])
            #expect(other.status == 422 && other.errorCode == "token_invalid" && (other.error["carrier"] as? [String: Any])?["code"] as? String == "12200", "\(other.body)")
            for (number, result) in [("13900003579", "match"), ("13900002222", "mismatch")] {
                let code = try await passgate.mintToken(appId: Self.app, phone: "13900003579", product: "verify")
                let answer = try await passgate.post(
                    "/v1/phone-number/verify", ["appId": Self.app, "token": code, "phoneNumber": number, "providerFields": ["processId": Self.processId()]])
                #expect(answer.status == 200 && answer.json["result"] as? String == result, "\(answer.body)")
            }
            let logged = logs.contents.joined(separator: "\n")
            for secret in ["13900003579", "13900002222", token, flow, Self.appKey] {
                #expect(!logged.contains(secret), "logs leak \(secret.prefix(4))…")
            }
        }
    }

    @Test("a spent flow id and a forced code keep Geetest's raw code; providerFields are held to Geetest's declaration before any call")
    func refusals() async throws {
        try await withRunningPassgate(Self.configuration()) { passgate in
            let flow = Self.processId()
            _ = try await passgate.post("/v1/phone-number", ["appId": Self.app, "token": try await passgate.mintToken(appId: Self.app), "providerFields": ["processId": flow]])
            let reused = try await passgate.post(
                "/v1/phone-number", ["appId": Self.app, "token": try await passgate.mintToken(appId: Self.app), "providerFields": ["processId": flow]])
            #expect(reused.status == 422 && reused.errorCode == "token_invalid" && reused.error["action"] as? String == "new_token", "\(reused.body)")
            #expect((reused.error["carrier"] as? [String: Any])?["code"] as? String == "12101")
            try await passgate.forceResultCode("12007", provider: "geetest")
            let blocked = try await passgate.post(
                "/v1/phone-number", ["appId": Self.app, "token": try await passgate.mintToken(appId: Self.app), "providerFields": ["processId": Self.processId()]])
            #expect(blocked.status == 502 && blocked.errorCode == "ip_not_whitelisted" && blocked.error["action"] as? String == "fix_config", "\(blocked.body)")
            try await passgate.forceResultCode("", provider: "geetest")
            let calls = try await passgate.sandboxCalls()
            for (fields, field) in [
                ([String: String](), "providerFields.processId"), (["processId": "has space"], "providerFields.processId"),
                (["processId": Self.processId(), "procesId": "typo"], "providerFields.procesId"),
            ] {
                let refused = try await passgate.post("/v1/phone-number", ["appId": Self.app, "token": "tok-unused", "providerFields": fields])
                #expect(refused.status == 400 && refused.errorCode == "invalid_request" && refused.error["field"] as? String == field, "\(refused.body)")
            }
            #expect(try await passgate.sandboxCalls() == calls, "refused before any call")
        }
    }
}
