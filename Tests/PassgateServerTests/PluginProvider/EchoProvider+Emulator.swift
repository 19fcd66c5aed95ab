import OpenSSLCrypto
import PassgateCore

extension EchoProvider {
    /// The sandbox's echo server: the same provider folder brings it, nothing else knows it.
    var emulator: (any ProviderEmulator)? { EchoEmulator() }
}

/// The echo provider's server as the sandbox plays it: `POST /exchange` with the app, the token
/// and its HMAC-SHA256 signature; code "0" with the number and a ticket, "7" for a bad signature,
/// "9" for a token that is unknown, spent or another app's.
struct EchoEmulator: ProviderEmulator {
    struct Credentials: EmulatedCredentials {
        var secret: String
        var accountKey: String? { nil }
    }

    var providerID: String { EchoProvider.id }
    var routes: [EmulatorRoute] { [EmulatorRoute(path: "/exchange", product: .login)] }

    func emulatedApp(_ app: any ProviderApp) -> EmulatedApp? {
        guard let app = app as? EchoProvider.App else { return nil }
        return EmulatedApp(appId: app.appId, provider: providerID, credentials: Credentials(secret: app.secret), verifyEnabled: false)
    }

    func answer(_ call: EmulatorCall) -> any EmulatorAnswer {
        var answer = Answer()
        guard let object = call.request.json?.members, let appId = object["app"]?.stringValue, let token = object["token"]?.stringValue else {
            return answer.answer("4", "bad request")
        }
        answer.echo = object["ref"]?.stringValue ?? ""
        guard let app = call.app(appId, of: providerID), let credentials = app.credentials as? Credentials else { return answer.answer("4", "unknown app") }
        answer.appId = appId
        let expected = (try? Digest.hmacSHA256(key: Array(credentials.secret.utf8), data: Array(token.utf8))).map(Hex.lowercase) ?? ""
        guard object["sig"]?.stringValue == expected else { return answer.answer("7", "bad signature") }
        guard case .success(let record) = call.spend(token, for: app) else { return answer.answer("9", "token used") }
        answer.msisdn = record.phoneNumber
        answer.phoneNumber = record.phoneNumber
        answer.taskId = "t-" + token.suffix(6)
        return answer.answer("0", "ok")
    }

    func forcedCodeProblem(_ code: String) -> String? { EmulatorChecks.numericCodeProblem(code) }

    /// The echo reply carries the number as `number` and the task id as `ticket`.
    struct Answer: DecidedEmulatorAnswer {
        var decision = EmulatorDecision(.login)

        var provider: String { EchoProvider.id }
        var httpStatus: Int { 200 }
        var isSuccess: Bool { code == "0" }

        func forced(_ code: String) -> Answer {
            forcing(code, meaning: "forced")
        }

        func body(echo: String) -> [UInt8] {
            var object = JSONObjectWriter()
            object.add("code", code)
            object.add("ticket", taskId)
            object.add("number", msisdn)
            return object.finish()
        }
    }
}
