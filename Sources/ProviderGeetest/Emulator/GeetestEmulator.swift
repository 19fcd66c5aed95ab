import PassgateCore

/// Geetest's two servers as the sandbox plays them (docs/geetest.md): OneLogin's `check_phone`
/// and OnePass's `check_gateway`, on the sandbox's one port. Both check the sign, the millisecond
/// timestamp and the flow id (`process_id`, spent by its first call whatever follows), then
/// spend the token; `check_phone` answers the number AES-256-CBC encrypted when asked.
public struct GeetestEmulator: ProviderEmulator {
    /// What Geetest holds for an app: its app_key.
    public struct Credentials: EmulatedCredentials {
        /// The console's app_key: the sign's HMAC key and the number's AES-256 key.
        public var appKey: String

        /// The app is known by its app_id, the appId itself.
        public var accountKey: String? { nil }

        public init(appKey: String) { self.appKey = appKey }
    }

    public init() {}

    public var providerID: String { Geetest.providerID }

    public var routes: [EmulatorRoute] {
        [EmulatorRoute(path: GeetestRequest.phoneNumberPath, product: .login), EmulatorRoute(path: GeetestRequest.verifyPath, product: .verify)]
    }

    public func emulatedApp(_ app: any ProviderApp) -> EmulatedApp? {
        guard let app = app as? GeetestApp else { return nil }
        return EmulatedApp(appId: app.appId, provider: providerID, credentials: Credentials(appKey: app.appKey))
    }

    public func answer(_ call: EmulatorCall) -> any EmulatorAnswer { check(call) }

    public func forcedCodeProblem(_ code: String) -> String? { EmulatorChecks.numericCodeProblem(code) }

    /// Geetest's decision on one call: `status` (a JSON number), `error_msg`, `result` (the
    /// number, hex ciphertext or clear, or the verification's verdict "0"/"1") and `charge`.
    struct Answer: DecidedEmulatorAnswer {
        var decision: EmulatorDecision
        /// `charge`: whether Geetest bills the call.
        var charge = false

        init(_ product: SandboxProduct) { decision = EmulatorDecision(product) }

        var provider: String { Geetest.providerID }
        var httpStatus: Int { 200 }
        var isSuccess: Bool { code == "200" }

        func forced(_ code: String) -> Answer {
            var copy = forcing(code, meaning: Geetest.codes.entries[code]?.meaning)
            copy.charge = code == "200"
            return copy
        }

        func body(echo: String) -> [UInt8] {
            var object = JSONObjectWriter()
            object.add("status", json: Array((code.isEmpty ? "0" : code).utf8))
            object.add("result", (product == .login ? msisdn : verdict) ?? "")
            object.add("error_msg", desc)
            object.add("charge", charge)
            return object.finish()
        }
    }
}

extension GeetestProvider {
    /// The sandbox's Geetest.
    public var emulator: (any ProviderEmulator)? { GeetestEmulator() }
}
