import ArgumentParser
import PassgateCore
import ProviderCMCC

/// `passgate sign verify-number`: a signed `tokenValidate` request (keyType 0).
struct SignVerifyNumberCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify-number",
        abstract: "Sign a tokenValidate request (is this the phone's own number), keyType 0.",
        discussion: """
            phoneNum = SHA256(phone + appKey + timestamp); sign = HMAC-SHA256(key: appKey, \
            appId + msgId + phoneNum + timestamp + token + version); both uppercase hex. The key is the \
            app's appKey, not its APPSecret.
            """
    )

    @Option(name: .customLong("app-id"), help: "The CMCC appid.")
    var appId: String

    @Option(help: "The number-verification token from the SDK.")
    var token: String

    @Option(help: "The 11-digit mainland phone number to check.")
    var phone: String

    @Option(name: .customLong("app-key"), help: "The app's appKey; literal, env:NAME or file:PATH.")
    var appKey: String

    @Option(name: .customLong("msgid"), help: "Pin the header msgId (default: fresh 32-hex id).")
    var msgId: String?

    @Option(help: "Pin the header timestamp, 17 digits Beijing time (default: now).")
    var timestamp: String?

    @OptionGroup var output: PinnedRequestOptions

    func run() throws {
        try reportingErrors {
            try PinnedRequestOptions.checkPlain(appId, option: "--app-id")
            try PinnedRequestOptions.checkPlain(token, option: "--token")
            guard MSISDN.isMainland(phone) else {
                throw CLIError(.usage, "--phone must be an 11-digit mainland mobile number (1[3-9] + 9 digits), got '\(phone)'")
            }
            let key = try CLISecrets.resolve(appKey, option: "--app-key")
            let stamp = try PinnedRequestOptions.checkTimestamp(timestamp, option: "--timestamp")
            let request = try CMCCVerifyRequest(
                appId: appId, token: token, phoneNumber: phone, keying: .appKey(key),
                msgId: try PinnedRequestOptions.checkMsgid(msgId, option: "--msgid"), timestamp: stamp
            )
            output.print(path: CMCCVerifyRequest.path, body: request.body, details: [
                ("phoneNum input", "\(phone)<appKey: \(key.count) chars>\(stamp)"),
                ("phoneNum", request.phoneNum),
                ("signed string (HMAC key: appKey)", request.signingInput),
            ])
        }
    }
}
