import PassgateCore

/// Getui's `gy_get_pn` (v2) as the sandbox plays it (docs/getui.md): the app by its appId, the
/// sign over both secrets and the millisecond timestamp, the device id, then the token; the number
/// AES-128-CBC encrypted under the MasterSecret's first 16 bytes.
public struct GetuiEmulator: ProviderEmulator {
    /// What Getui holds for an app: its two secrets.
    public struct Credentials: EmulatedCredentials {
        public var appSecret: String
        public var masterSecret: String

        /// The app is known by its appId, the appId itself.
        public var accountKey: String? { nil }

        public init(appSecret: String, masterSecret: String) {
            self.appSecret = appSecret
            self.masterSecret = masterSecret
        }
    }

    /// The code the sandbox answers for a token that is unknown, used, expired or another app's.
    /// Getui publishes none for this: the sandbox's choice, an undocumented code, so the client
    /// handles it as every undocumented code (raw, not retryable).
    public static let tokenRefusedCode = "40040"

    public init() {}

    public var providerID: String { Getui.providerID }

    public var routes: [EmulatorRoute] { [EmulatorRoute(path: GetuiRequest.path, product: .login)] }

    public func emulatedApp(_ app: any ProviderApp) -> EmulatedApp? {
        guard let app = app as? GetuiApp else { return nil }
        return EmulatedApp(
            appId: app.appId, provider: providerID, credentials: Credentials(appSecret: app.appSecret, masterSecret: app.masterSecret), verifyEnabled: false)
    }

    public func answer(_ call: EmulatorCall) -> any EmulatorAnswer { check(call) }

    public func forcedCodeProblem(_ code: String) -> String? { EmulatorChecks.numericCodeProblem(code) }

    /// Getui's decision on one call: `errno` 0 and `data.result`, `data.msg`, `data.data.pn`.
    /// The number (`msisdn`) is `pn`, hex AES-128-CBC.
    struct Answer: DecidedEmulatorAnswer {
        var decision: EmulatorDecision

        init(_ product: SandboxProduct) { decision = EmulatorDecision(product) }

        var provider: String { Getui.providerID }
        var httpStatus: Int { 200 }
        var isSuccess: Bool { code == "20000" }

        func forced(_ code: String) -> Answer { forcing(code, meaning: Getui.codes.entries[code]?.meaning) }

        func body(echo: String) -> [UInt8] {
            var inner = JSONObjectWriter()
            inner.add("result", code)
            inner.add("msg", desc)
            if let pn = msisdn {
                var number = JSONObjectWriter()
                number.add("pn", pn)
                inner.add("data", object: number)
            }
            var object = JSONObjectWriter()
            object.add("errno", 0)
            object.add("data", object: inner)
            return object.finish()
        }
    }
}

extension GetuiProvider {
    /// The sandbox's Getui.
    public var emulator: (any ProviderEmulator)? { GetuiEmulator() }
}
