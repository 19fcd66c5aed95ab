import CarrierSandbox
import Foundation
import OpenSSLCrypto
import PassgateConfig
import PassgateCore
import PassgateLiveTestSupport
import PassgateTestSupport
import ProviderCMCC
import Testing

/// Carrier-side errors, each produced by the CMCC emulator (the sandbox's engine, in-process)
/// from the real provider's signed request, and mapped by Passgate.
@Suite("REST API: carrier errors, in-process")
struct CarrierErrorTests {
    static let md5 = TestConfiguration.md5App

    @Test("a token another caller spent is 422 token_invalid with the carrier's 104201 kept")
    func spentToken() async throws {
        let sandbox = InProcessPassgate.sandbox()
        try await InProcessPassgate.with(InProcessPassgate.cmccConfiguration(), carrier: sandbox) { passgate in
            let token = try sandbox.mintToken(appId: Self.md5, phoneNumber: "13800138000")
            #expect(try await passgate.post("/v1/phone-number", ["appId": Self.md5, "token": token]).status == 200)
            // The same client would get the replayed number; another client's request reaches the carrier.
            let again = try await passgate.post("/v1/phone-number", ["appId": Self.md5, "token": token], apiKey: TestConfiguration.secondShopApiKey)
            #expect(again.status == 422 && again.errorCode == "token_invalid", "\(again.body)")
            let carrier = try #require(again.error["carrier"] as? [String: Any])
            #expect(carrier["provider"] as? String == "cmcc" && carrier["code"] as? String == "104201")
            #expect(again.error["retryable"] as? Bool == false)
        }
    }

    @Test("an expired token (the shared clock moved 2 minutes on) is token_invalid")
    func expiredToken() async throws {
        let clock = ManualClock(milliseconds: 1_764_000_000_000)
        let sandbox = InProcessPassgate.sandbox(clock: clock)
        try await InProcessPassgate.with(InProcessPassgate.cmccConfiguration(), carrier: sandbox, clock: clock) { passgate in
            let token = try sandbox.mintToken(appId: Self.md5, phoneNumber: "13800138000")
            clock.advance(milliseconds: 121_000)
            let answer = try await passgate.post("/v1/phone-number", ["appId": Self.md5, "token": token])
            #expect(answer.status == 422 && answer.errorCode == "token_invalid", "\(answer.body)")
        }
    }

    @Test("a token minted for another app is token_app_mismatch; a verification token used to log in is token_wrong_product")
    func wrongTokens() async throws {
        let sandbox = InProcessPassgate.sandbox()
        try await InProcessPassgate.with(InProcessPassgate.cmccConfiguration(), carrier: sandbox) { passgate in
            let foreign = try sandbox.mintToken(appId: TestConfiguration.secondMD5App, phoneNumber: "13800138000")
            let mismatch = try await passgate.post("/v1/phone-number", ["appId": Self.md5, "token": foreign])
            #expect(mismatch.status == 422 && mismatch.errorCode == "token_app_mismatch", "\(mismatch.body)")
            let verifyToken = try sandbox.mintToken(appId: Self.md5, phoneNumber: "13800138000", product: .verify)
            let wrongProduct = try await passgate.post("/v1/phone-number", ["appId": Self.md5, "token": verifyToken])
            #expect(wrongProduct.status == 422 && wrongProduct.errorCode == "token_wrong_product", "\(wrongProduct.body)")
        }
    }

    @Test("verification for an app without an appKey is app_not_enabled before any carrier call")
    func verifyWithoutAppKey() async throws {
        let sandbox = InProcessPassgate.sandbox()
        try await InProcessPassgate.with(InProcessPassgate.cmccConfiguration(), carrier: sandbox) { passgate in
            let answer = try await passgate.post("/v1/phone-number/verify", ["appId": TestConfiguration.secondMD5App, "token": "t", "phoneNumber": "13800138000"])
            #expect(answer.status == 502 && answer.errorCode == "app_not_enabled", "\(answer.body)")
            #expect(sandbox.carrierCalls == 0)
        }
    }

    @Test(
        "each injected carrier fault maps to its error code",
        arguments: [
            (SandboxFault.http500, 502, "carrier_bad_response"), (.http502, 502, "carrier_bad_response"), (.html, 502, "carrier_bad_response"),
            (.truncatedJSON, 502, "carrier_bad_response"), (.wrongInResponseTo, 502, "carrier_bad_response"),
            (.connectionReset, 504, "carrier_timeout"), (.noAnswer, 504, "carrier_timeout"),
        ]
    )
    func faults(fault: SandboxFault, status: Int, code: String) async throws {
        let sandbox = InProcessPassgate.sandbox()
        try await InProcessPassgate.with(InProcessPassgate.cmccConfiguration(), carrier: sandbox) { passgate in
            sandbox.setFault(fault)
            let token = try sandbox.mintToken(appId: Self.md5, phoneNumber: "13800138000")
            let answer = try await passgate.post("/v1/phone-number", ["appId": Self.md5, "token": token])
            #expect(answer.status == status && answer.errorCode == code, "\(fault): \(answer.body)")
            #expect(answer.error["retryable"] as? Bool == false)
        }
    }

    @Test("a carrier base URL whose connection is refused is 503 carrier_unavailable, retryable, naming the host")
    func unreachableCarrier() async throws {
        let transport = ScriptedTransport()
        transport.always(.unsent)
        try await InProcessPassgate.with(InProcessPassgate.cmccConfiguration(), carrier: transport) { passgate in
            let answer = try await passgate.post("/v1/phone-number", ["appId": Self.md5, "token": "STsid0000000000000000abc"])
            #expect(answer.status == 503 && answer.errorCode == "carrier_unavailable", "\(answer.body)")
            #expect(answer.error["retryable"] as? Bool == true)
            #expect((answer.error["message"] as? String)?.contains("sandbox.invalid") == true, "\(answer.body)")
        }
    }

    @Test(
        "console misconfigurations map to the operator-facing codes",
        arguments: ["signature_rejected", "ip_not_whitelisted", "quota_exhausted", "app_not_enabled", "msisdn_decrypt_failed", "carrier_rejected"]
    )
    func misconfigurations(code: String) async throws {
        let otherKey = TestRSAKeys.secondary
        let now: Int64 = 1_764_000_000_000
        // The carrier's clock 10 minutes ahead: Passgate's timestamps are outside its window.
        let carrierClock = ManualClock(milliseconds: code == "carrier_rejected" ? now + 600_000 : now)
        let sandbox = InProcessPassgate.sandbox(clock: carrierClock) { settings in
            for index in settings.apps.indices {
                switch code {
                case "signature_rejected": settings.apps[index].changeCredentials(CMCCEmulator.Credentials.self) { $0.md5Secret = "a-different-app-secret" }
                case "ip_not_whitelisted": settings.allowedClientIPs = ["192.0.2.10"]
                case "quota_exhausted": settings.apps[index].quota = 0
                case "app_not_enabled": settings.apps[index].loginEnabled = false
                case "msisdn_decrypt_failed": settings.apps[index].changeCredentials(CMCCEmulator.Credentials.self) { $0.encryptionKey = otherKey.publicKey }
                default: break
                }
            }
        }
        let app = code == "msisdn_decrypt_failed" ? TestConfiguration.rsaApp : Self.md5
        try await InProcessPassgate.with(InProcessPassgate.cmccConfiguration(), carrier: sandbox, clock: ManualClock(milliseconds: now)) { passgate in
            let token = try sandbox.mintToken(appId: app, phoneNumber: "13800138000")
            let answer = try await passgate.post("/v1/phone-number", ["appId": app, "token": token])
            #expect(answer.status == 502 && answer.errorCode == code, "\(answer.body)")
        }
    }
}
