import ArgumentParser
import PassgateCore
import ProviderShanyan

/// `passgate sign shanyan`: the exact Shanyan form request and the string its sign covers.
struct SignShanyanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shanyan",
        abstract: "Print a signed Shanyan mobile-query (or, with --phone, mobile-validate) request.",
        discussion: """
            sign = hex(HMAC-SHA256(appKey, name + value of every other field sent, sorted by name)). \
            The appKey may be given as env:NAME or file:PATH to keep it out of shell history.
            """
    )

    @Option(name: .customLong("app-id"), help: "Shanyan's appId.")
    var appId: String

    @Option(name: .customLong("app-key"), help: "The app's appKey; literal, env:NAME or file:PATH.")
    var appKey: String

    @Option(help: "The token from the SDK.")
    var token: String

    @Option(help: "Number verification: the 11-digit number to verify (default: a login request).")
    var phone: String?

    @Option(name: .customLong("out-id"), help: "The outId to send (Passgate sends its request id; default: none).")
    var outId: String?

    @Flag(help: "Ask for the RSA-encrypted number (encryptType=1), as an app with a privateKey does.")
    var rsa = false

    @Flag(help: "Write sign in upper-case hex (signCase: upper).")
    var upper = false

    @OptionGroup var output: PinnedRequestOptions

    func run() throws {
        try reportingErrors {
            try PinnedRequestOptions.checkPlain(appId, option: "--app-id")
            try PinnedRequestOptions.checkPlain(token, option: "--token")
            if let phone, !MSISDN.isMainland(phone) { throw CLIError(.usage, "--phone must be an 11-digit mainland mobile number") }
            let key = try CLISecrets.resolve(appKey, option: "--app-key")
            let request = try ShanyanRequest(
                appId: appId, appKey: key, signCase: upper ? .upper : .lower, rsaNumber: rsa, token: token, phoneNumber: phone, outId: outId)
            output.print(
                path: request.path, body: request.body, details: [("signed string", request.signingInput), ("sign", request.fields.last?.value ?? "")],
                headers: request.providerRequest.headers, defaultBaseURL: "https://wsflash.253.com")
        }
    }
}
