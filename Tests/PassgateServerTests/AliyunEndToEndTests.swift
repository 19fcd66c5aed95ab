import Foundation
import Logging
import PassgateConfig
import PassgateCore
import PassgateLiveTestSupport
import PassgateTestSupport
import ProviderAliyun
import Testing

/// Alibaba Cloud end to end: the REST API, the gateway, libcurl and the sandbox's Dypnsapi endpoint.
/// Only the exchanges go over the wire; the refusals run in-process through the same emulator.
@Suite("Alibaba Cloud end to end")
struct AliyunEndToEndTests {
    static let app = "ali-shop"
    /// Shares ali-shop's AccessKey ID with another secret: the sandbox knows the pair as ali-shop's.
    static let wrongSecretApp = "ali-wrong-secret"
    static let secret = "ALIaccessSECRET0a1b2c"

    static func configuration() -> PassgateConfiguration {
        var configuration = TestConfiguration.make()
        configuration.apps += [
            AppSettings(provider: Aliyun.providerID, settings: AliyunApp(appId: app, accessKeyId: "LTAIe2eKEYID", accessKeySecret: secret)),
            AppSettings(provider: Aliyun.providerID, settings: AliyunApp(appId: wrongSecretApp, accessKeyId: "LTAIe2eKEYID", accessKeySecret: "not-it")),
        ]
        configuration.clients[0].apps.formUnion([app, wrongSecretApp])
        configuration.clients[2].apps.insert(app)
        return configuration
    }

    @Test("phone number and verification through Alibaba Cloud; a replay does not call it again; logs stay clean")
    func exchanges() async throws {
        let logs = MemoryLogSink()
        try await withRunningPassgate(Self.configuration(), logs: logs) { passgate in
            let token = try await passgate.mintToken(appId: Self.app, phone: "13900003579")
            let first = try await passgate.post("/v1/phone-number", ["appId": Self.app, "token": token])
            #expect(first.status == 200 && first.json["phoneNumber"] as? String == "13900003579" && first.json["provider"] as? String == "aliyun", "\(first.body)")
            let calls = try await passgate.sandboxCalls()
            #expect(try await passgate.post("/v1/phone-number", ["appId": Self.app, "token": token]).json["replayed"] as? Bool == true)
            #expect(try await passgate.sandboxCalls() == calls)
            for (number, result) in [("13900003579", "match"), ("13900002222", "mismatch")] {
                let code = try await passgate.mintToken(appId: Self.app, phone: "13900003579", product: "verify")
                let answer = try await passgate.post("/v1/phone-number/verify", ["appId": Self.app, "token": code, "phoneNumber": number])
                #expect(answer.status == 200 && answer.json["result"] as? String == result, "\(answer.body)")
            }
            let logged = logs.contents.joined(separator: "\n")
            for secret in ["13900003579", "13900002222", token, Self.secret] {
                #expect(!logged.contains(secret), "logs leak \(secret.prefix(4))…")
            }
        }
    }

    @Test("Alibaba Cloud's refusals, business and gateway, become Passgate's codes with the raw code kept")
    func refusals() async throws {
        let logs = MemoryLogSink()
        var settings = Self.configuration()
        settings.log.level = .debug
        let sandbox = InProcessPassgate.sandbox(for: settings)
        try await InProcessPassgate.with(InProcessPassgate.pointedAtSandbox(settings), carrier: sandbox, logs: logs) { passgate in
            func expect(_ answer: APIAnswer, _ status: Int, _ code: String, raw: String, retryable: Bool = false) {
                #expect(answer.status == status && answer.errorCode == code, "\(answer.body)")
                #expect((answer.error["carrier"] as? [String: Any])?["code"] as? String == raw, "\(answer.body)")
                #expect(answer.error["retryable"] as? Bool == retryable, "\(answer.body)")
            }
            let token = try sandbox.mintToken(appId: Self.app)
            expect(try await passgate.post("/v1/phone-number", ["appId": Self.wrongSecretApp, "token": token]), 502, "signature_rejected", raw: "SignatureDoesNotMatch")
            #expect(try await passgate.post("/v1/phone-number", ["appId": Self.app, "token": token]).status == 200, "the gateway refusal did not spend the token")
            expect(try await passgate.post("/v1/phone-number", ["appId": Self.app, "token": token], apiKey: TestConfiguration.secondShopApiKey),
                   422, "token_invalid", raw: "isv.TOKEN_INVALID")
            let verifyToken = try sandbox.mintToken(appId: Self.app, product: "verify")
            expect(try await passgate.post("/v1/phone-number", ["appId": Self.app, "token": verifyToken]), 422, "token_wrong_product", raw: "isv.TOKEN_UNAUTHORIZED_USED")
            try await sandbox.forceResultCode("Throttling.User", provider: "aliyun")
            expect(try await passgate.post("/v1/phone-number", ["appId": Self.app, "token": try sandbox.mintToken(appId: Self.app)]),
                   429, "rate_limited", raw: "Throttling.User", retryable: true)
            try await sandbox.forceResultCode("isv.OUT_OF_SERVICE", provider: "aliyun")
            expect(try await passgate.post("/v1/phone-number", ["appId": Self.app, "token": try sandbox.mintToken(appId: Self.app)]),
                   502, "quota_exhausted", raw: "isv.OUT_OF_SERVICE")
            try await sandbox.forceResultCode("", provider: "aliyun")
            for fault in ["html", "truncatedJSON"] {
                try sandbox.setFault(fault)
                let bad = try await passgate.post("/v1/phone-number", ["appId": Self.app, "token": try sandbox.mintToken(appId: Self.app, phone: "13900008642")])
                #expect(bad.status == 502 && bad.errorCode == "carrier_bad_response" && !bad.body.contains("13900008642"), "\(bad.body)")
            }
            #expect(!logs.contents.joined().contains("13900008642"), "a fault's body reached the logs unredacted")
        }
    }
}
