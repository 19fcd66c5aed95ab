import ArgumentParser
import PassgateCore
import ProviderAliyun

/// `passgate sign aliyun`: the exact Alibaba Cloud RPC request and its string to sign.
struct SignAliyunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "aliyun",
        abstract: "Print a signed Alibaba Cloud GetMobile (or, with --phone, VerifyMobile) request.",
        discussion: """
            Signature = base64(HMAC-SHA1(AccessKeySecret + "&", "POST&%2F&" + percent-encoded sorted parameters)). \
            A SignatureDoesNotMatch answer means the secret is not the AccessKey ID's; compare the string to sign. \
            The secret may be given as env:NAME or file:PATH to keep it out of shell history.
            """
    )

    @Option(name: .customLong("access-key-id"), help: "The AccessKey ID.")
    var accessKeyId: String

    @Option(help: "The AccessKey secret; literal, env:NAME or file:PATH.")
    var secret: String

    @Option(help: "The token from the SDK (AccessToken, or AccessCode with --phone).")
    var token: String

    @Option(help: "Number verification: the 11-digit number to verify (default: GetMobile).")
    var phone: String?

    @Option(name: .customLong("out-id"), help: "The OutId to send (Passgate sends its request id; default: none).")
    var outId: String?

    @Option(help: "Pin SignatureNonce (default: fresh).")
    var nonce: String?

    @Option(help: "Pin Timestamp, UTC yyyy-MM-ddTHH:mm:ssZ (default: now).")
    var timestamp: String?

    @Option(name: .customLong("region-id"), help: "RegionId.")
    var regionId = "cn-hangzhou"

    @OptionGroup var output: PinnedRequestOptions

    func run() throws {
        try reportingErrors {
            try PinnedRequestOptions.checkPlain(accessKeyId, option: "--access-key-id")
            try PinnedRequestOptions.checkPlain(token, option: "--token")
            if let phone, !MSISDN.isMainland(phone) { throw CLIError(.usage, "--phone must be an 11-digit mainland mobile number") }
            let app = AliyunApp(appId: "sign", accessKeyId: accessKeyId, accessKeySecret: try CLISecrets.resolve(secret, option: "--secret"), regionId: regionId)
            let request = try AliyunRequest(
                app: app, token: token, phoneNumber: phone, outId: outId, nonce: nonce ?? MessageID.make(),
                timestamp: timestamp ?? Timestamp.string(milliseconds: SystemWallClock().nowMilliseconds(), style: .iso8601Seconds))
            output.print(
                path: AliyunRequest.path, body: request.body, details: [("string to sign", request.stringToSign), ("Signature", request.signature)],
                headers: request.providerRequest.headers, defaultBaseURL: "https://dypnsapi.aliyuncs.com")
        }
    }
}
