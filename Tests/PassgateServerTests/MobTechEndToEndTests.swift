import Foundation
import Logging
import PassgateConfig
import PassgateCore
import PassgateLiveTestSupport
import PassgateTestSupport
import ProviderMobTech
import Testing

/// MobTech end to end: the REST API with `providerFields`, libcurl and the sandbox's MobTech
/// endpoint (which takes the minted token as both Mob's token and the carrier's opToken).
@Suite("MobTech end to end")
struct MobTechEndToEndTests {
    static let app = "mob-shop"
    static let secret = "MOBappSECRET0a1b2c3d"

    static func configuration() -> PassgateConfiguration {
        var configuration = TestConfiguration.make()
        configuration.apps.append(AppSettings(provider: MobTech.providerID, settings: MobTechApp(appId: app, appSecret: secret)))
        configuration.clients[0].apps.insert(app)
        return configuration
    }

    static func body(_ token: String, opToken: String? = nil, fields: [String: String]? = nil) -> [String: Any] {
        ["appId": app, "token": token, "providerFields": fields ?? ["opToken": opToken ?? token, "operator": "CMCC"]]
    }

    @Test("the number through MobTech; a replay does not call it again, another opToken is a new exchange; logs stay clean")
    func exchanges() async throws {
        let logs = MemoryLogSink()
        try await withRunningPassgate(Self.configuration(), logs: logs) { passgate in
            let token = try await passgate.mintToken(appId: Self.app, phone: "13900003579")
            let first = try await passgate.post("/v1/phone-number", Self.body(token))
            #expect(first.status == 200 && first.json["phoneNumber"] as? String == "13900003579" && first.json["provider"] as? String == "mobtech", "\(first.body)")
            let calls = try await passgate.sandboxCalls()
            let again = try await passgate.post("/v1/phone-number", Self.body(token))
            #expect(again.json["replayed"] as? Bool == true && again.json["phoneNumber"] as? String == "13900003579")
            #expect(try await passgate.sandboxCalls() == calls)
            // opToken is single use: with another one the same token is a new call, which MobTech refuses as spent.
            let spent = try await passgate.post("/v1/phone-number", Self.body(token, opToken: "another-op-token"))
            #expect(spent.status == 422 && spent.errorCode == "token_invalid", "\(spent.body)")
            #expect((spent.error["carrier"] as? [String: Any])?["code"] as? String == "4119310")
            #expect(try await passgate.sandboxCalls() == calls + 1)
            let verify = try await passgate.post("/v1/phone-number/verify", Self.body(token).merging(["phoneNumber": "13900003579"]) { $1 })
            #expect(verify.status == 502 && verify.errorCode == "app_not_enabled", "\(verify.body)")
            let logged = logs.contents.joined(separator: "\n")
            for secret in ["13900003579", token, Self.secret] {
                #expect(!logged.contains(secret), "logs leak \(secret.prefix(4))…")
            }
        }
    }

    @Test("a scripted code becomes Passgate's with the raw code kept; faults are carrier_bad_response")
    func refusals() async throws {
        try await withRunningPassgate(Self.configuration()) { passgate in
            try await passgate.forceResultCode("5119341", provider: "mobtech")
            let broke = try await passgate.post("/v1/phone-number", Self.body(try await passgate.mintToken(appId: Self.app)))
            #expect(broke.status == 502 && broke.errorCode == "quota_exhausted" && broke.error["action"] as? String == "contact_provider", "\(broke.body)")
            #expect((broke.error["carrier"] as? [String: Any])?["code"] as? String == "5119341")
            try await passgate.forceResultCode("4119342", provider: "mobtech")
            let sign = try await passgate.post("/v1/phone-number", Self.body(try await passgate.mintToken(appId: Self.app)))
            #expect(sign.errorCode == "signature_rejected" && sign.error["action"] as? String == "fix_config", "\(sign.body)")
            try await passgate.forceResultCode("", provider: "mobtech")
            for fault in ["html", "truncatedJSON"] {
                try await passgate.setFault(fault)
                let bad = try await passgate.post("/v1/phone-number", Self.body(try await passgate.mintToken(appId: Self.app, phone: "13900008642")))
                #expect(bad.status == 502 && bad.errorCode == "carrier_bad_response" && !bad.body.contains("13900008642"), "\(bad.body)")
            }
        }
    }

    @Test("providerFields: a missing, malformed or undeclared one is 400 naming it, before any call", arguments: [
        (["operator": "CMCC"], "providerFields.opToken"), (["opToken": "op", "operator": "China Mobile"], "providerFields.operator"),
        (["opToken": "op", "operator": "CMCX"], "providerFields.operator"), (["opToken": "op", "operator": "CMCC", "md5": "xyz"], "providerFields.md5"),
        (["opToken": "op", "operator": "CMCC", "processId": "p"], "providerFields.processId"),
    ])
    func fieldValidation(fields: [String: String], field: String) async throws {
        try await withRunningPassgate(Self.configuration()) { passgate in
            let calls = try await passgate.sandboxCalls()
            let answer = try await passgate.post("/v1/phone-number", Self.body("any-token-value", fields: fields))
            #expect(answer.status == 400 && answer.errorCode == "invalid_request" && answer.error["field"] as? String == field, "\(answer.body)")
            #expect(try await passgate.sandboxCalls() == calls)
        }
    }
}
