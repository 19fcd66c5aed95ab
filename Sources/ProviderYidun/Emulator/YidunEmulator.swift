import PassgateCore

/// NetEase Yidun's one-click login API as the sandbox plays it (docs/yidun.md): the phone number
/// at `POST /v1/oneclick/check`, verification at `POST /v1/check`, MD5-signed form bodies.
public struct YidunEmulator: ProviderEmulator {
    /// What Yidun holds for an app: its business and product key.
    public struct Credentials: EmulatedCredentials {
        /// The one-click login business the product key must belong to.
        public var businessId: String
        /// The product key's id, which names the account in every request.
        public var secretId: String
        /// The product key's secret that ends the signature's input.
        public var secretKey: String

        public var accountKey: String? { secretId }

        public init(businessId: String, secretId: String, secretKey: String) {
            self.businessId = businessId
            self.secretId = secretId
            self.secretKey = secretKey
        }
    }

    public init() {}

    public var providerID: String { Yidun.providerID }

    public var routes: [EmulatorRoute] {
        [EmulatorRoute(path: YidunRequest.loginPath, product: .login), EmulatorRoute(path: YidunRequest.verifyPath, product: .verify)]
    }

    public func emulatedApp(_ app: any ProviderApp) -> EmulatedApp? {
        guard let app = app as? YidunApp else { return nil }
        return EmulatedApp(
            appId: app.appId, provider: providerID,
            credentials: Credentials(businessId: app.businessId, secretId: app.secretId, secretKey: app.secretKey))
    }

    public func answer(_ call: EmulatorCall) -> any EmulatorAnswer { check(call) }

    /// Yidun's codes are HTTP-like numbers.
    public func forcedCodeProblem(_ code: String) -> String? { EmulatorChecks.numericCodeProblem(code) }

    /// Yidun's decision on one call: `code`, `msg` and `data` (the number, or the verification's
    /// `result`).
    /// A verification's verdict is its `result`: "1" pass, "2" fail.
    struct Answer: DecidedEmulatorAnswer {
        var decision: EmulatorDecision
        var httpStatus: Int { 200 }

        init(_ product: SandboxProduct) { decision = EmulatorDecision(product) }

        var provider: String { Yidun.providerID }
        var isSuccess: Bool { code == "200" }

        func forced(_ code: String) -> Answer {
            forcing(code, meaning: Yidun.codes.entries[code]?.meaning)
        }

        func body(echo: String) -> [UInt8] {
            var object = JSONObjectWriter()
            object.add("code", Int(code) ?? 503)
            object.add("msg", desc)
            if code == "200" {
                var data = JSONObjectWriter()
                if product == .login {
                    data.add("phone", msisdn ?? "")
                    data.add("resultCode", msisdn == nil ? "103111" : "0")
                } else {
                    data.add("result", verdict.flatMap { Int($0) } ?? 3)
                }
                object.add("data", object: data)
            } else {
                object.add("data", json: Array("null".utf8))
            }
            return object.finish()
        }
    }
}

extension YidunProvider {
    /// The sandbox's NetEase Yidun.
    public var emulator: (any ProviderEmulator)? { YidunEmulator() }
}
