import Foundation
import Logging
import PassgateConfig
import PassgateCore
import PassgateLiveTestSupport
import PassgateTestSupport
import ProviderYidun
import Testing

/// NetEase Yidun end to end: the REST API with `providerFields.accessToken`, the server, libcurl
/// and the sandbox's Yidun endpoints.
@Suite("NetEase Yidun end to end")
struct YidunEndToEndTests {
    static let app = "yd-shop"
    static let secretKey = "YDsecretKEY0a1b2c3d4e"

    static func configuration() -> PassgateConfiguration {
        var configuration = TestConfiguration.make()
        configuration.apps.append(AppSettings(
            provider: Yidun.providerID, settings: YidunApp(appId: app, businessId: "yd-e2e-business", secretId: "yd-e2e-secret-id", secretKey: secretKey)))
        configuration.clients[0].apps.insert(app)
        return configuration
    }

    static func body(_ token: String, _ accessToken: String?, phoneNumber: String? = nil) -> [String: Any] {
        var body: [String: Any] = ["appId": app, "token": token]
        if let accessToken { body["providerFields"] = ["accessToken": accessToken] }
        if let phoneNumber { body["phoneNumber"] = phoneNumber }
        return body
    }

    @Test("phone number and verification; a replay needs the same accessToken; the spent token is token_invalid; logs stay clean")
    func exchanges() async throws {
        let logs = MemoryLogSink()
        try await withRunningPassgate(Self.configuration(), logs: logs) { passgate in
            let token = try await passgate.mintToken(appId: Self.app, phone: "13900003579")
            let first = try await passgate.post("/v1/phone-number", Self.body(token, "CMCCcarrierToken-e2e-1"))
            #expect(first.status == 200 && first.json["phoneNumber"] as? String == "13900003579" && first.json["provider"] as? String == "yidun", "\(first.body)")
            let calls = try await passgate.sandboxCalls()
            #expect(try await passgate.post("/v1/phone-number", Self.body(token, "CMCCcarrierToken-e2e-1")).json["replayed"] as? Bool == true)
            #expect(try await passgate.sandboxCalls() == calls)
            // Another accessToken is another exchange: Yidun's token is spent.
            let spent = try await passgate.post("/v1/phone-number", Self.body(token, "CMCCcarrierToken-e2e-2"))
            #expect(spent.status == 422 && spent.errorCode == "token_invalid" && (spent.error["carrier"] as? [String: Any])?["code"] as? String == "450", "\(spent.body)")
            for (index, (number, result)) in [("13900003579", "match"), ("13900002222", "mismatch")].enumerated() {
                let code = try await passgate.mintToken(appId: Self.app, phone: "13900003579", product: "verify")
                let answer = try await passgate.post("/v1/phone-number/verify", Self.body(code, "CMCCverify-e2e-\(index)", phoneNumber: number))
                #expect(answer.status == 200 && answer.json["result"] as? String == result, "\(answer.body)")
            }
            let logged = logs.contents.joined(separator: "\n")
            for secret in ["13900003579", "13900002222", token, "CMCCcarrierToken-e2e-1", Self.secretKey] {
                #expect(!logged.contains(secret), "logs leak \(secret.prefix(4))…")
            }
        }
    }

    @Test("providerFields: accessToken missing or malformed, or an undeclared key, is a 400 naming it, before any call")
    func providerFieldsValidation() async throws {
        try await withRunningPassgate(Self.configuration()) { passgate in
            let token = try await passgate.mintToken(appId: Self.app)
            let calls = try await passgate.sandboxCalls()
            let cases: [([String: Any], String)] = [
                (Self.body(token, nil), "providerFields.accessToken"),
                (Self.body(token, "has space"), "providerFields.accessToken"),
                (Self.body(token, String(repeating: "a", count: 2049)), "providerFields.accessToken"),
                (["appId": Self.app, "token": token, "providerFields": ["accessToken": "ok-token", "processId": "x"]], "providerFields.processId"),
            ]
            for (body, field) in cases {
                let answer = try await passgate.post("/v1/phone-number", body)
                #expect(answer.status == 400 && answer.errorCode == "invalid_request" && answer.error["field"] as? String == field, "\(answer.body)")
            }
            #expect(try await passgate.sandboxCalls() == calls)
            #expect(try await passgate.post("/v1/phone-number", Self.body(token, "CMCCfresh")).status == 200, "the refusals did not spend the token")
        }
    }

    @Test("a scripted code becomes Passgate's with the raw code kept; HTML is a bad response")
    func refusals() async throws {
        try await withRunningPassgate(Self.configuration()) { passgate in
            for (code, status, expected) in [("405", 502, "signature_rejected"), ("401", 502, "app_not_enabled"), ("503", 502, "carrier_error")] {
                try await passgate.forceResultCode(code, provider: "yidun")
                let answer = try await passgate.post("/v1/phone-number", Self.body(try await passgate.mintToken(appId: Self.app), "CMCC-\(code)"))
                #expect(answer.status == status && answer.errorCode == expected, "\(answer.body)")
                #expect((answer.error["carrier"] as? [String: Any])?["code"] as? String == code && answer.error["retryable"] as? Bool == false)
            }
            try await passgate.forceResultCode("", provider: "yidun")
            try await passgate.setFault("html")
            let bad = try await passgate.post("/v1/phone-number", Self.body(try await passgate.mintToken(appId: Self.app), "CMCC-html"))
            #expect(bad.status == 502 && bad.errorCode == "carrier_bad_response", "\(bad.body)")
        }
    }
}
