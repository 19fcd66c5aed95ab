import ArgumentParser
import PassgateCore
import ProviderJVerification

/// `passgate sign jverification`: the exact JVerification request, login or verification.
struct SignJVerificationCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "jverification",
        abstract: "Print a JVerification loginTokenVerify (or, with --phone, verify) request.",
        discussion: """
            JVerification authenticates with HTTP Basic: Authorization: Basic base64(appKey + ":" + masterSecret). \
            A 9010/9011 answer means that header is not the app's appKey and Master Secret. The header is shown \
            with the secret masked (its length given) unless --show-secret is set.
            Secrets may be given as env:NAME or file:PATH to keep them out of shell history.
            """
    )

    @Option(name: .customLong("app-key"), help: "The app's appKey in the JiGuang console.")
    var appKey: String

    @Option(help: "The app's Master Secret; literal, env:NAME or file:PATH.")
    var secret: String

    @Option(help: "The token from the SDK.")
    var token: String

    @Option(help: "Number verification: the 11-digit number to verify (default: a login request).")
    var phone: String?

    @Option(name: .customLong("ex-id"), help: "The exID to send (Passgate sends its request id; default: pg-sign).")
    var exID = "pg-sign"

    @Option(name: .customLong("api-version"), help: "1, or 2 for the v2 login API (risk score).")
    var apiVersion = 1

    @Flag(name: .customLong("show-secret"), help: "Print the Authorization header unmasked.")
    var showSecret = false

    @OptionGroup var output: PinnedRequestOptions

    func run() throws {
        try reportingErrors {
            try PinnedRequestOptions.checkPlain(appKey, option: "--app-key")
            try PinnedRequestOptions.checkPlain(token, option: "--token")
            guard apiVersion == 1 || apiVersion == 2 else { throw CLIError(.usage, "--api-version must be 1 or 2") }
            let masterSecret = try CLISecrets.resolve(secret, option: "--secret")
            let app = JVerificationApp(appId: "sign", appKey: appKey, masterSecret: masterSecret, privateKey: nil, apiVersion: apiVersion)
            let request: JVerificationRequest
            if let phone {
                guard MSISDN.isMainland(phone) else { throw CLIError(.usage, "--phone must be an 11-digit mainland mobile number") }
                request = .verify(app: app, token: token, phoneNumber: phone, exID: exID)
            } else {
                request = .login(app: app, token: token, exID: exID)
            }
            let authorization = showSecret ? request.authorization : "Basic <base64 of \"\(appKey):<Master Secret, \(masterSecret.count) characters>\">"
            let headers = request.providerRequest.headers.map { $0.name == "Authorization" ? (name: $0.name, value: authorization) : $0 }
            output.print(path: request.path, body: request.body, details: [
                ("authenticated as", "appKey \(appKey), Master Secret of \(masterSecret.count) characters"),
            ], headers: headers, defaultBaseURL: "https://api.verification.jpush.cn")
        }
    }
}
