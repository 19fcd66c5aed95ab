import CarrierSandbox
import Foundation
import Logging
import PassgateCLI
import PassgateConfig
import PassgateCore
import PassgateProviders
import PassgateTestSupport
import Testing

/// The built-in providers' emulators answering in-process (`CarrierSandbox` as the gateway's
/// transport): real signatures checked, real tokens spent, real reply bytes, codes and faults,
/// no socket. Live tests keep the wire between them (`withRunningPassgate`'s embedded sandbox).
extension InProcessPassgate {
    /// Where every emulated provider's calls go; never resolved.
    static let sandboxURL = "https://sandbox.invalid"

    /// `configuration` without the embedded sandbox, and every provider the sandbox emulates
    /// pointed at ``sandboxURL`` (timeouts kept).
    static func pointedAtSandbox(_ configuration: PassgateConfiguration) -> PassgateConfiguration {
        var configuration = configuration
        configuration.sandbox.enabled = false
        for id in configuration.registry.emulators.map(\.providerID) {
            configuration.providers[id, default: ProviderSettings(id: id, baseURLs: [])].baseURLs = [sandboxURL]
        }
        return configuration
    }

    /// `TestConfiguration.make()`, CMCC pointed at ``sandboxURL``.
    static func cmccConfiguration(timeoutMs: Int = 3000) -> PassgateConfiguration {
        pointedAtSandbox(TestConfiguration.make(timeoutMs: timeoutMs))
    }

    /// A sandbox emulating the apps of `configuration`, changed by `change` (a carrier console
    /// that disagrees with Passgate), on `clock`.
    static func sandbox(
        for configuration: PassgateConfiguration = TestConfiguration.make(), clock: any PassgateClock = SystemClock(),
        _ change: (inout SandboxConfiguration) -> Void = { _ in }
    ) -> CarrierSandbox {
        var settings = configuration.sandboxConfiguration
        change(&settings)
        return CarrierSandbox(configuration: settings, registry: .builtIn, clock: clock, logger: Logger(label: "test.sandbox"))
    }
}

extension CarrierSandbox {
    /// Login and verify calls answered so far.
    var carrierCalls: Int { stats.loginCalls + stats.verifyCalls }

    /// Mints a token as the carrier SDK would hand one to the app (`product`: `login`, `verify`).
    func mintToken(appId: String, phone: String = "13800138000", product: String = "login") throws -> String {
        try mintToken(appId: appId, phoneNumber: phone, product: try #require(SandboxProduct(rawValue: product)))
    }

    /// Makes `provider`'s calls that would succeed answer `code` instead ("" clears it), through
    /// the sandbox's control endpoint as `RunningPassgate.forceResultCode` does over HTTP.
    func forceResultCode(_ code: String, provider: String = "cmcc") async throws {
        let body = [UInt8](try JSONSerialization.data(withJSONObject: ["resultCode": code, "provider": provider]))
        let reply = try await send(CarrierHTTPRequest(
            method: "PUT", url: InProcessPassgate.sandboxURL + "/sandbox/faults", body: body, headers: [("Content-Type", "application/json")],
            connectTimeoutMs: 1000, timeoutMs: 1000))
        try #require(reply.status < 300, "sandbox refused resultCode \(code): \(reply.status)")
    }

    /// Sets the fault by its name (`html`, `noAnswer`, …; `none` clears it).
    func setFault(_ name: String) throws {
        setFault(try #require(SandboxFault(rawValue: name), "no sandbox fault \(name)"))
    }
}
