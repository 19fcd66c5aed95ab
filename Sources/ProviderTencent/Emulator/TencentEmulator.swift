import PassgateCore

/// Tencent Cloud's number-authentication endpoint as the sandbox plays it (docs/tencent.md):
/// `POST /v5/rapidauth/validate?sdkappid=…&random=…` with a SHA-256 `sig` in a JSON body.
/// Tencent publishes no code table: the sandbox's refusal codes are its own (docs/tencent.md).
public struct TencentEmulator: ProviderEmulator {
    /// What Tencent Cloud holds for an app: its AppKey (the app is named by its sdkappid).
    public struct Credentials: EmulatedCredentials {
        /// The AppKey inside the string the `sig` digests.
        public var appKey: String
        public var accountKey: String? { nil }

        public init(appKey: String) { self.appKey = appKey }
    }

    /// The sandbox's own refusal codes, since Tencent publishes none; each maps as any code
    /// other than 0 does (`carrier_error`, raw code kept, not retryable).
    public enum SandboxCode {
        public static let badSig = "1001"
        public static let badTime = "1002"
        public static let unknownApp = "1003"
        public static let badRequest = "1004"
        public static let badToken = "1005"
        public static let noService = "1006"
    }

    public init() {}

    public var providerID: String { Tencent.providerID }

    public var routes: [EmulatorRoute] { [EmulatorRoute(path: TencentRequest.path, product: .login)] }

    public func emulatedApp(_ app: any ProviderApp) -> EmulatedApp? {
        guard let app = app as? TencentApp else { return nil }
        return EmulatedApp(appId: app.appId, provider: providerID, credentials: Credentials(appKey: app.appKey), verifyEnabled: false)
    }

    public func answer(_ call: EmulatorCall) -> any EmulatorAnswer { check(call) }

    /// Tencent's codes are integers.
    public func forcedCodeProblem(_ code: String) -> String? { EmulatorChecks.numericCodeProblem(code) }

    /// Tencent's decision on one call: `result`, `errmsg` and the number.
    struct Answer: DecidedEmulatorAnswer {
        var decision: EmulatorDecision
        var httpStatus: Int { 200 }

        init(_ product: SandboxProduct) { decision = EmulatorDecision(product) }

        var provider: String { Tencent.providerID }
        var isSuccess: Bool { code == "0" }

        func forced(_ code: String) -> Answer {
            forcing(code, meaning: nil)
        }

        func body(echo: String) -> [UInt8] {
            var object = JSONObjectWriter()
            object.add("result", Int(code) ?? 1004)
            object.add("errmsg", desc)
            if code == "0", let msisdn { object.add("mobile", msisdn) }
            return object.finish()
        }
    }
}

extension TencentProvider {
    /// The sandbox's Tencent Cloud.
    public var emulator: (any ProviderEmulator)? { TencentEmulator() }
}
