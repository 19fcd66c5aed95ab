import PassgateLiveTestSupport
import PassgateCLI
import PassgateCore
import CarrierSandbox
import CurlTransport
import Foundation
import Logging
import OpenSSLCrypto
import PassgateServer
import PassgateConfig
import PassgateProviders
import ProviderCMCC
import Synchronization
import PassgateTestSupport
import Testing

/// Carrier-side errors, each produced for real by the sandbox and mapped by Passgate.
@Suite("REST API: carrier errors end to end")
struct CarrierErrorTests {
    static let md5 = TestConfiguration.md5App

    @Test("a token another caller spent is 422 token_invalid with the carrier's 104201 kept")
    func spentToken() async throws {
        try await withRunningPassgate { passgate in
            let token = try await passgate.mintToken(appId: Self.md5)
            #expect(try await passgate.post("/v1/phone-number", ["appId": Self.md5, "token": token]).status == 200)
            // The same client would get the replayed number; another client's request reaches the carrier.
            let again = try await passgate.post("/v1/phone-number", ["appId": Self.md5, "token": token], apiKey: TestConfiguration.secondShopApiKey)
            #expect(again.status == 422 && again.errorCode == "token_invalid", "\(again.body)")
            let carrier = try #require(again.error["carrier"] as? [String: Any])
            #expect(carrier["provider"] as? String == "cmcc" && carrier["code"] as? String == "104201")
            #expect(again.error["retryable"] as? Bool == false)
        }
    }

    @Test("an expired token (clock moved 2 minutes on) is token_invalid")
    func expiredToken() async throws {
        let clock = ManualClock(milliseconds: Int64(Date().timeIntervalSince1970 * 1000))
        try await withRunningPassgate(TestConfiguration.make(), clock: clock) { passgate in
            let token = try await passgate.mintToken(appId: Self.md5)
            clock.advance(milliseconds: 121_000)
            let answer = try await passgate.post("/v1/phone-number", ["appId": Self.md5, "token": token])
            #expect(answer.status == 422 && answer.errorCode == "token_invalid", "\(answer.body)")
        }
    }

    @Test("a token minted for another app is token_app_mismatch; a verification token used to log in is token_wrong_product")
    func wrongTokens() async throws {
        try await withRunningPassgate { passgate in
            let foreign = try await passgate.mintToken(appId: TestConfiguration.secondMD5App)
            let mismatch = try await passgate.post("/v1/phone-number", ["appId": Self.md5, "token": foreign])
            #expect(mismatch.status == 422 && mismatch.errorCode == "token_app_mismatch", "\(mismatch.body)")
            let verifyToken = try await passgate.mintToken(appId: Self.md5, product: "verify")
            let wrongProduct = try await passgate.post("/v1/phone-number", ["appId": Self.md5, "token": verifyToken])
            #expect(wrongProduct.status == 422 && wrongProduct.errorCode == "token_wrong_product", "\(wrongProduct.body)")
        }
    }

    @Test("verification for an app without an appKey is app_not_enabled before any carrier call")
    func verifyWithoutAppKey() async throws {
        try await withRunningPassgate { passgate in
            let answer = try await passgate.post("/v1/phone-number/verify", ["appId": TestConfiguration.secondMD5App, "token": "t", "phoneNumber": "13800138000"])
            #expect(answer.status == 502 && answer.errorCode == "app_not_enabled", "\(answer.body)")
        }
    }

    @Test(
        "each injected carrier fault maps to its error code",
        arguments: [
            ("http500", 502, "carrier_bad_response"), ("http502", 502, "carrier_bad_response"), ("html", 502, "carrier_bad_response"),
            ("truncatedJSON", 502, "carrier_bad_response"), ("wrongInResponseTo", 502, "carrier_bad_response"),
            ("connectionReset", 504, "carrier_timeout"), ("noAnswer", 504, "carrier_timeout"),
        ]
    )
    func faults(fault: String, status: Int, code: String) async throws {
        try await withRunningPassgate(TestConfiguration.make(timeoutMs: 800)) { passgate in
            try await passgate.setFault(fault)
            let token = try await passgate.mintToken(appId: Self.md5)
            let answer = try await passgate.post("/v1/phone-number", ["appId": Self.md5, "token": token])
            #expect(answer.status == status && answer.errorCode == code, "\(fault): \(answer.body)")
            #expect(answer.error["retryable"] as? Bool == false)
        }
    }

    @Test("a carrier base URL that refuses connections is 503 carrier_unavailable, retryable")
    func unreachableCarrier() async throws {
        let refusing = try RefusingPort()
        try await withRunningPassgate(TestConfiguration.make(sandbox: false, baseURL: "http://127.0.0.1:\(refusing.port)")) { passgate in
            let answer = try await passgate.post("/v1/phone-number", ["appId": Self.md5, "token": "STsid0000000000000000abc"])
            #expect(answer.status == 503 && answer.errorCode == "carrier_unavailable", "\(answer.body)")
            #expect(answer.error["retryable"] as? Bool == true)
        }
    }

    /// A standalone sandbox whose view of the apps differs from Passgate's: a misconfigured carrier console.
    static func misconfigured(_ change: (inout SandboxConfiguration) -> Void, clock: any PassgateClock = SystemClock()) async throws -> (CarrierSandbox, Int) {
        var settings = TestConfiguration.make().sandboxConfiguration
        settings.port = 0
        change(&settings)
        let sandbox = CarrierSandbox(configuration: settings, registry: .builtIn, clock: clock, logger: Logger(label: "test.sandbox"))
        return (sandbox, try await sandbox.start())
    }

    @Test(
        "console misconfigurations map to the operator-facing codes",
        arguments: ["signature_rejected", "ip_not_whitelisted", "quota_exhausted", "app_not_enabled", "msisdn_decrypt_failed", "carrier_rejected"]
    )
    func misconfigurations(code: String) async throws {
        let otherKey = TestRSAKeys.secondary
        let skewedClock = ManualClock(milliseconds: Int64(Date().timeIntervalSince1970 * 1000) + 600_000)
        var app = Self.md5
        let (sandbox, port) = try await Self.misconfigured({ settings in
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
        }, clock: code == "carrier_rejected" ? skewedClock : SystemClock())
        if code == "msisdn_decrypt_failed" { app = TestConfiguration.rsaApp }
        try await withRunningPassgate(TestConfiguration.make(sandbox: false, baseURL: "http://127.0.0.1:\(port)")) { passgate in
            let token = try await RunningPassgate.mintToken(http: passgate.http, sandbox: "http://127.0.0.1:\(port)", appId: app)
            let answer = try await passgate.post("/v1/phone-number", ["appId": app, "token": token])
            #expect(answer.status == 502 && answer.errorCode == code, "\(answer.body)")
        }
        await sandbox.shutdown()
    }
}

/// A loopback port that refuses connections: bound but never listening, and held until
/// `release()` (or deinit) so no parallel test's server can take it meanwhile.
final class RefusingPort: Sendable {
    let port: Int
    // Closed exactly once: a second close would hit whatever socket or pipe reused the number.
    private let descriptor: Mutex<Int32?>

    /// The port comes from `TestPorts` (below the ephemeral range), so after `release()` no other
    /// test's connection or `bind(0)` can take it before the test starts its server there.
    init() throws {
        for _ in 0..<10 {
            let candidate = try TestPorts.reserve()
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { throw POSIXError(.EMFILE) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = in_port_t(UInt16(candidate).bigEndian)
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            if bound == 0 {
                descriptor = Mutex(fd)
                port = candidate
                return
            }
            close(fd)
        }
        throw POSIXError(.EADDRINUSE)
    }

    /// Frees the port (for a test that then starts a server on it).
    func release() {
        if let fd = descriptor.withLock({ fd in defer { fd = nil }; return fd }) { close(fd) }
    }

    deinit { release() }
}
