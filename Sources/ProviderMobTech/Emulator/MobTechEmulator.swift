import Foundation
import OpenSSLCrypto
import PassgateCore

/// MobTech SecVerify's server as the sandbox plays it (docs/mobtech.md): `sdkClientFreeLogin`
/// with a JSON body signed by MD5 over the sorted fields and the AppSecret, a millisecond
/// timestamp, Mob's one-time token with the carrier's opToken, and the answer DES-encrypted.
public struct MobTechEmulator: ProviderEmulator {
    /// What MobTech's console holds for an app.
    public struct Credentials: EmulatedCredentials {
        /// The app's appkey, which names it in every request.
        public var appkey: String
        /// The AppSecret: the sign's key, and its first 8 bytes the DES key of the answer.
        public var appSecret: String

        public var accountKey: String? { appkey }

        public init(appkey: String, appSecret: String) {
            self.appkey = appkey
            self.appSecret = appSecret
        }
    }

    public init() {}

    public var providerID: String { MobTech.providerID }

    public var routes: [EmulatorRoute] { [EmulatorRoute(path: MobTechRequest.path, product: .login)] }

    public func emulatedApp(_ app: any ProviderApp) -> EmulatedApp? {
        guard let app = app as? MobTechApp else { return nil }
        return EmulatedApp(appId: app.appId, provider: providerID, credentials: Credentials(appkey: app.appId, appSecret: app.appSecret))
    }

    public func answer(_ call: EmulatorCall) -> any EmulatorAnswer { check(call) }

    /// MobTech's codes: 200, or 7 digits starting with 4 or 5.
    public func forcedCodeProblem(_ code: String) -> String? {
        let digits = code.utf8.allSatisfy { (48...57).contains($0) }
        if digits, code == "200" || (code.utf8.count == 7 && (code.hasPrefix("4") || code.hasPrefix("5"))) { return nil }
        return "resultCode: must be a MobTech code, 200 or 7 digits starting with 4 or 5 (such as \"4119310\"), or \"\" to clear it"
    }

    /// MobTech's decision on one call: `status` (a JSON number), `res` (the decision's `msisdn`:
    /// base64 of the DES-encrypted `{"isValid":1,"phone":…,"valid":true}`), `seqid` (its task id)
    /// and `error`.
    struct Answer: DecidedEmulatorAnswer {
        var decision = EmulatorDecision(.login)

        var provider: String { MobTech.providerID }
        var httpStatus: Int { 200 }
        var isSuccess: Bool { code == "200" }

        func forced(_ code: String) -> Answer {
            forcing(code, meaning: MobTech.codes.entries[code]?.meaning)
        }

        func body(echo: String) -> [UInt8] {
            var object = JSONObjectWriter()
            object.add("status", json: Array((code.isEmpty ? "0" : code).utf8))
            object.add("res", orNull: msisdn)
            object.add("seqid", taskId ?? "")
            object.add("error", orNull: code == "200" ? nil : desc)
            return object.finish()
        }
    }
}

extension MobTechProvider {
    /// The sandbox's MobTech.
    public var emulator: (any ProviderEmulator)? { MobTechEmulator() }
}
