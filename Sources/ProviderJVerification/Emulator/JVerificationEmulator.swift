import OpenSSLCrypto
import PassgateCore

/// JiGuang's JVerification server as the sandbox plays it (docs/jverification.md): HTTP Basic
/// authentication with the appKey and Master Secret, the body's fields, one-time tokens, the
/// number RSA-encrypted and base64, and JiGuang's codes (a wrong method is its 9013, not a 405).
public struct JVerificationEmulator: ProviderEmulator {
    /// What JiGuang's console holds for an app.
    public struct Credentials: EmulatedCredentials {
        /// The app's appKey (the Basic authentication user).
        public var appKey: String
        /// The Master Secret (the Basic authentication password).
        public var masterSecret: String
        /// Encrypts the number; `nil` answers 9022.
        public var encryptionKey: RSAPublicKey?
        /// The login path of a reseller app's own endpoint, which the sandbox then answers on too.
        public var loginPath: String?

        public var accountKey: String? { appKey }

        public init(appKey: String, masterSecret: String, encryptionKey: RSAPublicKey? = nil, loginPath: String? = nil) {
            self.appKey = appKey
            self.masterSecret = masterSecret
            self.encryptionKey = encryptionKey
            self.loginPath = loginPath
        }
    }

    public init() {}

    public var providerID: String { JVerification.providerID }

    public var routes: [EmulatorRoute] {
        [
            EmulatorRoute(path: JVerificationRequest.loginPath(apiVersion: 1), product: .login, method: nil),
            EmulatorRoute(path: JVerificationRequest.loginPath(apiVersion: 2), product: .login, method: nil),
            EmulatorRoute(path: JVerificationRequest.verifyPath, product: .verify, method: nil),
        ]
    }

    /// JiGuang's paths, and the login path of every app that names its own endpoint (a reseller's).
    public func routes(for apps: [EmulatedApp]) -> [EmulatorRoute] {
        let own = apps.compactMap { ($0.credentials as? Credentials)?.loginPath }.filter { path in !routes.contains { $0.path == path } }
        return routes + Set(own).sorted().map { EmulatorRoute(path: $0, product: .login, method: nil) }
    }

    public func emulatedApp(_ app: any ProviderApp) -> EmulatedApp? {
        guard let app = app as? JVerificationApp else { return nil }
        return EmulatedApp(
            appId: app.appId, provider: providerID,
            credentials: Credentials(appKey: app.appKey, masterSecret: app.masterSecret, encryptionKey: app.privateKey?.publicKey, loginPath: app.endpoint?.path))
    }

    public func answer(_ call: EmulatorCall) -> any EmulatorAnswer { check(call) }

    public func forcedCodeProblem(_ code: String) -> String? { EmulatorChecks.numericCodeProblem(code) }

    /// JVerification's decision on one call; its reply has `code` and `id` as JSON numbers, `phone` base64.
    struct Answer: DecidedEmulatorAnswer {
        var decision: EmulatorDecision
        /// The v2 login answers a risk score.
        var score: Int?

        init(_ product: SandboxProduct) { decision = EmulatorDecision(product) }

        var provider: String { JVerification.providerID }
        var httpStatus: Int { 200 }

        var isSuccess: Bool {
            product == .login ? code == "8000" : code == "9000" || code == "9001" || code == "9002"
        }

        func forced(_ code: String) -> Answer {
            var copy = forcing(code, meaning: JVerification.codes.entries[code]?.meaning)
            copy.score = nil
            return copy
        }

        func body(echo: String) -> [UInt8] {
            var object = JSONObjectWriter()
            if let taskId { object.add("id", json: Array(taskId.utf8)) }
            object.add("code", json: Array((code.isEmpty ? "0" : code).utf8))
            object.add("content", desc)
            if !echo.isEmpty { object.add("exID", echo) }
            object.add("phone", msisdn)
            if let score { object.add("score", score) }
            return object.finish()
        }
    }
}

extension JVerificationProvider {
    /// The sandbox's JVerification.
    public var emulator: (any ProviderEmulator)? { JVerificationEmulator() }
}
