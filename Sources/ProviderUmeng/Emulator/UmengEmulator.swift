import PassgateCore

/// Umeng+ U-Verify behind the Alibaba Cloud API gateway, as the sandbox plays it (docs/umeng.md):
/// the gateway checks the Marketplace AppKey, the millisecond timestamp, the nonce and the digest
/// signature and refuses with a 4xx, an empty body and `X-Ca-Error-Message`; then Umeng spends the
/// token and answers JSON. Umeng's own failure codes are not public: the sandbox's are its own.
public struct UmengEmulator: ProviderEmulator {
    /// What the Marketplace and Umeng hold for an app.
    public struct Credentials: EmulatedCredentials {
        /// Umeng's appkey (the query's `appkey`).
        public var appkey: String
        /// The Marketplace AppKey (`X-Ca-Key`), which names the caller at the gateway.
        public var gatewayAppKey: String
        /// The Marketplace AppSecret that keys `X-Ca-Signature`.
        public var gatewayAppSecret: String

        public var accountKey: String? { gatewayAppKey }

        public init(appkey: String, gatewayAppKey: String, gatewayAppSecret: String) {
            self.appkey = appkey
            self.gatewayAppKey = gatewayAppKey
            self.gatewayAppSecret = gatewayAppSecret
        }
    }

    /// The sandbox's business codes (Umeng's are not public): a token unknown, spent or another
    /// app's; the capability off; the quota used up; a request without its fields.
    public enum SandboxCode {
        public static let tokenInvalid = "5001"
        public static let disabled = "5002"
        public static let noQuota = "5003"
        public static let badRequest = "400"
    }

    public init() {}

    public var providerID: String { Umeng.providerID }

    public var routes: [EmulatorRoute] {
        [EmulatorRoute(path: UmengRequest.loginPath, product: .login), EmulatorRoute(path: UmengRequest.verifyPath, product: .verify)]
    }

    public func emulatedApp(_ app: any ProviderApp) -> EmulatedApp? {
        guard let app = app as? UmengApp else { return nil }
        return EmulatedApp(
            appId: app.appId, provider: providerID,
            credentials: Credentials(appkey: app.appId, gatewayAppKey: app.gatewayAppKey, gatewayAppSecret: app.gatewayAppSecret))
    }

    public func answer(_ call: EmulatorCall) -> any EmulatorAnswer { check(call) }

    /// A business code (1-6 digits) or one of the gateway's refusals in the table (`Invalid Signature`).
    public func forcedCodeProblem(_ code: String) -> String? {
        if (1...6).contains(code.utf8.count), code.utf8.allSatisfy({ (48...57).contains($0) }) { return nil }
        if Umeng.codes.entries[code] != nil { return nil }
        return "resultCode: must be 1-6 digits (a Umeng business code) or a gateway refusal such as \"Invalid Signature\", or \"\" to clear it"
    }

    /// Umeng's decision on one call, or the gateway's refusal (`gatewayMessage`, with an empty body).
    /// `data.mobile` is the decision's `msisdn`, `data.verifyResult` its verdict.
    struct Answer: DecidedEmulatorAnswer {
        var decision: EmulatorDecision
        /// The gateway's `X-Ca-Error-Message`; nil for Umeng's own answers.
        var gatewayMessage: String?
        var httpStatus = 200
        let requestId = UmengEmulator.requestId()

        init(_ product: SandboxProduct) { decision = EmulatorDecision(product) }

        var provider: String { Umeng.providerID }
        var isSuccess: Bool { code == "200" && gatewayMessage == nil }

        var headers: [(String, String)] {
            [("X-Ca-Request-Id", requestId)] + (gatewayMessage.map { [("X-Ca-Error-Message", $0)] } ?? [])
        }

        /// The gateway refusing with `status` and `message` (its code: the message up to the first comma).
        func refused(_ status: Int, _ message: String) -> Answer {
            var copy = answer(String(message.prefix { $0 != "," }), message)
            copy.httpStatus = status
            copy.gatewayMessage = message
            return copy
        }

        func forced(_ code: String) -> Answer {
            let copy = forcing(code, meaning: Umeng.codes.entries[code]?.meaning)
            if !code.utf8.allSatisfy({ (48...57).contains($0) }) { return copy.refused(code.hasPrefix("Throttled") ? 403 : 400, code) }
            return copy
        }

        func body(echo: String) -> [UInt8] {
            guard gatewayMessage == nil else { return [] }
            var object = JSONObjectWriter()
            object.add("success", code == "200")
            object.add("code", json: Array((code.isEmpty ? "0" : code).utf8))
            object.add("message", desc)
            var data = JSONObjectWriter()
            if let msisdn { data.add("mobile", msisdn) }
            if let verdict { data.add("verifyResult", verdict) }
            object.add("data", object: data)
            return object.finish()
        }
    }
}

extension UmengProvider {
    /// The sandbox's Umeng.
    public var emulator: (any ProviderEmulator)? { UmengEmulator() }
}
