import ArgumentParser
import PassgateCore
import ProviderCMCC

/// `passgate sign login-token`: a signed `loginTokenValidate` request, MD5 or RSA mode.
struct SignLoginTokenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login-token",
        abstract: "Sign a loginTokenValidate request (phone number from a login token).",
        discussion: """
            MD5 mode (--secret): sign = MD5(appid + version + msgid + systemtime + strictcheck + token + secret), \
            uppercase hex. The secret is the app's APPSecret (apps created before 2018-12-26 may still use the \
            legacy appKey). RSA mode (--private-key): sign = hex(SHA256withRSA(appid + token)).
            Secrets may be given as env:NAME or file:PATH to keep them out of shell history.
            """
    )

    @Option(name: .customLong("app-id"), help: "The CMCC appid the app's SDK used.")
    var appId: String

    @Option(help: "The token from the SDK.")
    var token: String

    @Option(help: "MD5 mode: the APPSecret (or legacy appKey); literal, env:NAME or file:PATH.")
    var secret: String?

    @Option(name: .customLong("private-key"), help: "RSA mode: private key file (PEM or base64 DER, PKCS#1 or PKCS#8).")
    var privateKey: String?

    @Option(help: "Pin the msgid (default: fresh 32-hex id).")
    var msgid: String?

    @Option(help: "Pin systemtime, 17 digits Beijing time (default: now).")
    var systemtime: String?

    @Flag(help: "Set strictcheck to 1 (strict IP checking).")
    var strict = false

    @OptionGroup var output: PinnedRequestOptions

    func run() throws {
        try reportingErrors {
            try PinnedRequestOptions.checkPlain(appId, option: "--app-id")
            try PinnedRequestOptions.checkPlain(token, option: "--token")
            let signing: CMCCLoginSigning
            switch (secret, privateKey) {
            case (let secret?, nil): signing = .md5(secret: try CLISecrets.resolve(secret, option: "--secret"))
            case (nil, let path?): signing = .rsa(privateKey: try KeyLoading.privateKey(path: path))
            default: throw CLIError(.usage, "give exactly one of --secret (MD5 mode) or --private-key (RSA mode)")
            }
            let request = try CMCCLoginRequest(
                appId: appId, token: token, signing: signing,
                msgid: try PinnedRequestOptions.checkMsgid(msgid, option: "--msgid"),
                systemtime: try PinnedRequestOptions.checkTimestamp(systemtime, option: "--systemtime"),
                strictCheck: strict
            )
            output.print(path: CMCCLoginRequest.path, body: request.body, details: [
                ("signed string", request.redactedSigningInput),
                ("sign", request.json["sign"] ?? ""),
            ])
        }
    }
}
