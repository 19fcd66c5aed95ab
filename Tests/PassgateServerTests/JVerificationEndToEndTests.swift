import Foundation
import Logging
import OpenSSLCrypto
import PassgateConfig
import PassgateCore
import PassgateLiveTestSupport
import PassgateTestSupport
import ProviderJVerification
import Testing

/// JVerification end to end: the REST API, the gateway, libcurl and the sandbox's JVerification
/// server on loopback, with nothing JVerification-specific above the provider. Only the exchanges
/// go over the wire; the refusals and bad replies run in-process through the same emulator.
@Suite("JVerification end to end")
struct JVerificationEndToEndTests {
    static let app = "jg-shop"
    /// Shares jg-shop's appKey with another Master Secret: the sandbox knows the pair as jg-shop's,
    /// so this app's calls fail authentication for real.
    static let wrongSecretApp = "jg-wrong-secret"
    static let masterSecret = "JGmasterSECRET0a1b2c3d"
    static var key: RSAPrivateKey { TestRSAKeys.primary1024 }

    static func configuration() -> PassgateConfiguration {
        var configuration = TestConfiguration.make()
        configuration.apps += [
            AppSettings(provider: JVerification.providerID, settings: JVerificationApp(
                appId: app, appKey: "JGappKEY77aa", masterSecret: masterSecret, privateKey: key)),
            AppSettings(provider: JVerification.providerID, settings: JVerificationApp(
                appId: wrongSecretApp, appKey: "JGappKEY77aa", masterSecret: "not-the-master-secret", privateKey: key)),
        ]
        configuration.clients[0].apps.formUnion([app, wrongSecretApp])
        configuration.clients[2].apps.insert(app)
        return configuration
    }

    @Test("phone number and verification through JVerification; a replay does not call it again; the 64-bit id is the task id")
    func exchanges() async throws {
        let logs = MemoryLogSink()
        try await withRunningPassgate(Self.configuration(), logs: logs) { passgate in
            let token = try await passgate.mintToken(appId: Self.app, phone: "13900001234")
            let first = try await passgate.post("/v1/phone-number", ["appId": Self.app, "token": token])
            #expect(first.status == 200, "\(first.body)")
            #expect(first.json["provider"] as? String == "jverification" && first.json["phoneNumber"] as? String == "13900001234")
            let taskId = try #require(first.json["carrierTaskId"] as? String)
            #expect(taskId.count >= 18 && UInt64(taskId) != nil)
            let calls = try await passgate.sandboxCalls()
            let replay = try await passgate.post("/v1/phone-number", ["appId": Self.app, "token": token])
            #expect(replay.json["replayed"] as? Bool == true && replay.json["carrierTaskId"] as? String == taskId)
            #expect(try await passgate.sandboxCalls() == calls, "a replay makes no provider call")

            for (number, result) in [("13900001234", "match"), ("13900005678", "mismatch")] {
                let verifyToken = try await passgate.mintToken(appId: Self.app, phone: "13900001234", product: "verify")
                let answer = try await passgate.post("/v1/phone-number/verify", ["appId": Self.app, "token": verifyToken, "phoneNumber": number])
                #expect(answer.status == 200 && answer.json["result"] as? String == result, "\(answer.body)")
            }
            let logged = logs.contents.joined(separator: "\n")
            for secret in ["13900001234", "13900005678", token, Self.masterSecret, "JGappKEY77aa"] {
                #expect(!logged.contains(secret), "logs leak \(secret.prefix(4))…")
            }
        }
    }

    @Test("JVerification's refusals, produced for real, become Passgate's codes with the raw code kept")
    func refusals() async throws {
        let sandbox = InProcessPassgate.sandbox(for: Self.configuration())
        try await InProcessPassgate.with(InProcessPassgate.pointedAtSandbox(Self.configuration()), carrier: sandbox) { passgate in
            func expect(_ answer: APIAnswer, _ status: Int, _ code: String, raw: String?, retryable: Bool = false) {
                #expect(answer.status == status && answer.errorCode == code, "\(answer.body)")
                #expect((answer.error["carrier"] as? [String: Any])?["code"] as? String == raw, "\(answer.body)")
                #expect(answer.error["retryable"] as? Bool == retryable, "\(answer.body)")
            }
            // Wrong Master Secret: refused before the token is looked at, so it still works after.
            let token = try sandbox.mintToken(appId: Self.app)
            expect(try await passgate.post("/v1/phone-number", ["appId": Self.wrongSecretApp, "token": token]), 502, "signature_rejected", raw: "9011")
            #expect(try await passgate.post("/v1/phone-number", ["appId": Self.app, "token": token]).status == 200)
            // Spent: the same token from another caller (its own replay key) reaches JVerification again.
            expect(try await passgate.post("/v1/phone-number", ["appId": Self.app, "token": token], apiKey: TestConfiguration.secondShopApiKey),
                   422, "token_invalid", raw: "9003")
            // A verification token used for login.
            let verifyToken = try sandbox.mintToken(appId: Self.app, product: "verify")
            expect(try await passgate.post("/v1/phone-number", ["appId": Self.app, "token": verifyToken]), 422, "token_invalid", raw: "9021")
            // Throttling and an empty balance, as JVerification answers them.
            try await sandbox.forceResultCode("1804", provider: "jverification")
            expect(try await passgate.post("/v1/phone-number", ["appId": Self.app, "token": try sandbox.mintToken(appId: Self.app)]),
                   429, "rate_limited", raw: "1804", retryable: true)
            try await sandbox.forceResultCode("9018", provider: "jverification")
            expect(try await passgate.post("/v1/phone-number", ["appId": Self.app, "token": try sandbox.mintToken(appId: Self.app)]),
                   502, "quota_exhausted", raw: "9018")
            try await sandbox.forceResultCode("", provider: "jverification")
        }
    }

    @Test("a reply JVerification would not send is carrier_bad_response, without the number in the answer or the logs", arguments: ["html", "truncatedJSON", "http502"])
    func badReplies(fault: String) async throws {
        let logs = MemoryLogSink()
        var settings = Self.configuration()
        settings.log.level = .debug
        let sandbox = InProcessPassgate.sandbox(for: settings)
        try await InProcessPassgate.with(InProcessPassgate.pointedAtSandbox(settings), carrier: sandbox, logs: logs) { passgate in
            try sandbox.setFault(fault)
            let answer = try await passgate.post("/v1/phone-number", ["appId": Self.app, "token": try sandbox.mintToken(appId: Self.app, phone: "13900004321")])
            #expect(answer.status == 502 && answer.errorCode == "carrier_bad_response", "\(answer.body)")
            #expect(!answer.body.contains("13900004321"))
            #expect(!logs.contents.joined().contains("13900004321") && !logs.contents.joined().contains(Self.masterSecret))
        }
    }
}
