import PassgateCore

/// Alibaba Cloud's Dypnsapi RPC endpoint as the sandbox plays it (docs/aliyun.md): `POST /` with
/// the Action in a signed form body, the gateway's 4xx refusals, then the service's codes.
public struct AliyunEmulator: ProviderEmulator {
    /// What Alibaba Cloud holds for an app: its AccessKey pair.
    public struct Credentials: EmulatedCredentials {
        /// The AccessKey ID, which names the account in every request.
        public var accessKeyId: String
        /// The AccessKey secret that keys the HMAC-SHA1 signature.
        public var accessKeySecret: String

        public var accountKey: String? { accessKeyId }

        public init(accessKeyId: String, accessKeySecret: String) {
            self.accessKeyId = accessKeyId
            self.accessKeySecret = accessKeySecret
        }
    }

    public init() {}

    public var providerID: String { Aliyun.providerID }

    /// One RPC endpoint; the Action parameter names the product, and a wrong method is the
    /// gateway's `InvalidApi.NotFound`.
    public var routes: [EmulatorRoute] { [EmulatorRoute(path: "/", product: .login, method: nil)] }

    public func emulatedApp(_ app: any ProviderApp) -> EmulatedApp? {
        guard let app = app as? AliyunApp else { return nil }
        return EmulatedApp(
            appId: app.appId, provider: providerID, credentials: Credentials(accessKeyId: app.accessKeyId, accessKeySecret: app.accessKeySecret))
    }

    public func answer(_ call: EmulatorCall) -> any EmulatorAnswer { check(call) }

    /// Alibaba Cloud's codes are dotted names: a letter first, letters, digits, `.` and `_`, no
    /// run of more than 6 digits.
    public func forcedCodeProblem(_ code: String) -> String? {
        let bytes = Array(code.utf8)
        var run = 0
        var valid = (1...64).contains(bytes.count) && bytes.first.map { (65...90).contains($0) || (97...122).contains($0) } == true
        for byte in bytes where valid {
            run = (48...57).contains(byte) ? run + 1 : 0
            valid = run <= 6 && ((48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte) || byte == 0x2E || byte == 0x5F)
        }
        return valid
            ? nil : "resultCode: must be an Alibaba Cloud code such as \"isv.TOKEN_INVALID\" (letters, digits, '.', '_'), or \"\" to clear it"
    }

    /// Alibaba Cloud's decision on one call: `Code`, `Message`, `RequestId`, and the operation's
    /// result object; a gateway refusal comes with a 4xx status, `HostId` and `Recommend`.
    /// A verification's verdict is `PASS` or `REJECT`.
    struct Answer: DecidedEmulatorAnswer {
        var decision: EmulatorDecision
        var httpStatus = 200

        init(_ product: SandboxProduct) { decision = EmulatorDecision(product) }

        var provider: String { Aliyun.providerID }
        var isSuccess: Bool { code == "OK" }

        func forced(_ code: String) -> Answer {
            var copy = forcing(code, meaning: Aliyun.codes.entries[code]?.meaning)
            // The gateway's codes come with a 4xx status; the service's business codes with 200.
            if code != "OK", !code.hasPrefix("isv.") { copy.httpStatus = 400 }
            return copy
        }

        func body(echo: String) -> [UInt8] {
            var object = JSONObjectWriter()
            object.add("RequestId", taskId ?? "00000000-0000-4000-8000-000000000000")
            if httpStatus != 200 { object.add("HostId", "dypnsapi.aliyuncs.com") }
            object.add("Code", code)
            object.add("Message", desc)
            if httpStatus != 200 { object.add("Recommend", "https://api.aliyun.com/troubleshoot?q=\(code)") }
            if code == "OK", product == .login, let msisdn {
                var result = JSONObjectWriter()
                result.add("Mobile", msisdn)
                object.add("GetMobileResultDTO", object: result)
            } else if code == "OK", product == .verify, let verdict {
                var result = JSONObjectWriter()
                result.add("VerifyResult", verdict)
                result.add("VerifyId", taskId)
                object.add("GateVerifyResultDTO", object: result)
            }
            return object.finish()
        }
    }
}

extension AliyunProvider {
    /// The sandbox's Alibaba Cloud.
    public var emulator: (any ProviderEmulator)? { AliyunEmulator() }
}
