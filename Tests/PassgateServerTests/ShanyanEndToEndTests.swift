import Foundation
import Logging
import OpenSSLCrypto
import PassgateConfig
import PassgateCore
import PassgateLiveTestSupport
import PassgateTestSupport
import ProviderShanyan
import Testing

/// Shanyan end to end: the REST API, the gateway, libcurl and the sandbox's Shanyan server on loopback.
/// Only the exchanges go over the wire; the refusals run in-process through the same emulator.
@Suite("Shanyan end to end")
struct ShanyanEndToEndTests {
    static let app = "sy-shop"
    static let rsaApp = "sy-rsa"
    static let appKey = "SYappKEYsecret42"
    static var key: RSAPrivateKey { TestRSAKeys.primary1024 }

    static func configuration() -> PassgateConfiguration {
        var configuration = TestConfiguration.make()
        configuration.apps += [
            AppSettings(provider: Shanyan.providerID, settings: ShanyanApp(appId: app, appKey: appKey)),
            AppSettings(provider: Shanyan.providerID, settings: ShanyanApp(appId: rsaApp, appKey: "SYotherKEY777777", privateKey: key)),
        ]
        configuration.clients[0].apps.formUnion([app, rsaApp])
        configuration.clients[2].apps.insert(app)
        return configuration
    }

    @Test("phone number (AES and RSA numbers) and verification through Shanyan; a replay does not call it again; logs stay clean")
    func exchanges() async throws {
        let logs = MemoryLogSink()
        try await withRunningPassgate(Self.configuration(), logs: logs) { passgate in
            var tokens: [String] = []
            for app in [Self.app, Self.rsaApp] {
                let token = try await passgate.mintToken(appId: app, phone: "13900002468")
                tokens.append(token)
                let answer = try await passgate.post("/v1/phone-number", ["appId": app, "token": token])
                #expect(answer.status == 200 && answer.json["phoneNumber"] as? String == "13900002468", "\(answer.body)")
                #expect(answer.json["provider"] as? String == "shanyan" && answer.json["carrierTaskId"] is String)
            }
            let calls = try await passgate.sandboxCalls()
            let replay = try await passgate.post("/v1/phone-number", ["appId": Self.app, "token": tokens[0]])
            let callsAfter = try await passgate.sandboxCalls()
            #expect(replay.json["replayed"] as? Bool == true && callsAfter == calls)
            for (number, result) in [("13900002468", "match"), ("13900001357", "mismatch")] {
                let token = try await passgate.mintToken(appId: Self.app, phone: "13900002468", product: "verify")
                let answer = try await passgate.post("/v1/phone-number/verify", ["appId": Self.app, "token": token, "phoneNumber": number])
                #expect(answer.status == 200 && answer.json["result"] as? String == result, "\(answer.body)")
            }
            let logged = logs.contents.joined(separator: "\n")
            for secret in ["13900002468", "13900001357", Self.appKey] + tokens {
                #expect(!logged.contains(secret), "logs leak \(secret.prefix(4))…")
            }
        }
    }

    @Test("Shanyan's refusals keep its raw code as carrier_error (its table is not published); bad replies are carrier_bad_response")
    func refusals() async throws {
        let logs = MemoryLogSink()
        var settings = Self.configuration()
        settings.log.level = .debug
        let sandbox = InProcessPassgate.sandbox(for: settings)
        try await InProcessPassgate.with(InProcessPassgate.pointedAtSandbox(settings), carrier: sandbox, logs: logs) { passgate in
            let token = try sandbox.mintToken(appId: Self.app)
            #expect(try await passgate.post("/v1/phone-number", ["appId": Self.app, "token": token]).status == 200)
            let spent = try await passgate.post("/v1/phone-number", ["appId": Self.app, "token": token], apiKey: TestConfiguration.secondShopApiKey)
            #expect(spent.status == 502 && spent.errorCode == "carrier_error" && spent.error["action"] as? String == "contact_provider", "\(spent.body)")
            #expect((spent.error["carrier"] as? [String: Any])?["code"] as? String == "400101")
            let wrongKind = try await passgate.post("/v1/phone-number", ["appId": Self.app, "token": try sandbox.mintToken(appId: Self.app, product: "verify")])
            #expect((wrongKind.error["carrier"] as? [String: Any])?["code"] as? String == "400103", "\(wrongKind.body)")
            try await sandbox.forceResultCode("400201", provider: "shanyan")
            let broke = try await passgate.post("/v1/phone-number", ["appId": Self.app, "token": try sandbox.mintToken(appId: Self.app)])
            #expect(broke.errorCode == "carrier_error" && (broke.error["carrier"] as? [String: Any])?["code"] as? String == "400201", "\(broke.body)")
            try await sandbox.forceResultCode("", provider: "shanyan")
            for fault in ["html", "truncatedJSON"] {
                try sandbox.setFault(fault)
                let bad = try await passgate.post("/v1/phone-number", ["appId": Self.app, "token": try sandbox.mintToken(appId: Self.app, phone: "13900009753")])
                #expect(bad.status == 502 && bad.errorCode == "carrier_bad_response" && !bad.body.contains("13900009753"), "\(bad.body)")
            }
            #expect(!logs.contents.joined().contains("13900009753"), "a fault's body reached the logs unredacted")
        }
    }
}
