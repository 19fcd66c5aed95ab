import OpenSSLCrypto
import PassgateCore

/// Shanyan's server as the sandbox plays it (docs/shanyan.md): form bodies signed with a hex
/// HMAC-SHA256 under the appKey, one-time tokens, the number AES- or RSA-encrypted, and codes of
/// the sandbox's own (``ShanyanCode``: Shanyan publishes no table).
public struct ShanyanEmulator: ProviderEmulator {
    /// What Shanyan's console holds for an app.
    public struct Credentials: EmulatedCredentials {
        /// The app's appKey: keys the sign and derives the AES key.
        public var appKey: String
        /// Encrypts the number when the request asks for RSA (`encryptType=1`); `nil` answers 500001.
        public var encryptionKey: RSAPublicKey?

        public var accountKey: String? { appKey }

        public init(appKey: String, encryptionKey: RSAPublicKey? = nil) {
            self.appKey = appKey
            self.encryptionKey = encryptionKey
        }
    }

    public init() {}

    public var providerID: String { Shanyan.providerID }

    public var routes: [EmulatorRoute] {
        // Shanyan answers a wrong method with its own code.
        [
            EmulatorRoute(path: ShanyanRequest.loginPath, product: .login, method: nil),
            EmulatorRoute(path: ShanyanRequest.verifyPath, product: .verify, method: nil),
        ]
    }

    public func emulatedApp(_ app: any ProviderApp) -> EmulatedApp? {
        guard let app = app as? ShanyanApp else { return nil }
        return EmulatedApp(
            appId: app.appId, provider: providerID, credentials: Credentials(appKey: app.appKey, encryptionKey: app.privateKey?.publicKey))
    }

    public func answer(_ call: EmulatorCall) -> any EmulatorAnswer { check(call) }

    public func forcedCodeProblem(_ code: String) -> String? { EmulatorChecks.numericCodeProblem(code) }

    /// Shanyan's decision on one call; its reply has `code` a string, `chargeStatus` 1 when
    /// billed, the rest under `data`.
    /// A verification's verdict is "1" or "0".
    struct Answer: DecidedEmulatorAnswer {
        var decision: EmulatorDecision

        init(_ product: SandboxProduct) { decision = EmulatorDecision(product) }

        var provider: String { Shanyan.providerID }
        var httpStatus: Int { 200 }
        var isSuccess: Bool { code == ShanyanCode.success }

        func forced(_ code: String) -> Answer {
            forcing(code, meaning: Shanyan.codes.entries[code]?.meaning)
        }

        func body(echo: String) -> [UInt8] {
            var data = JSONObjectWriter()
            data.add("tradeNo", taskId)
            data.add("mobileName", msisdn)
            data.add("isVerify", verdict)
            var object = JSONObjectWriter()
            object.add("code", code)
            object.add("message", desc)
            object.add("chargeStatus", isSuccess || taskId != nil ? 1 : 0)
            if taskId != nil || msisdn != nil || verdict != nil { object.add("data", object: data) }
            return object.finish()
        }
    }
}

extension ShanyanProvider {
    /// The sandbox's Shanyan.
    public var emulator: (any ProviderEmulator)? { ShanyanEmulator() }
}
