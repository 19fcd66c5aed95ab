import Foundation
import OpenSSLCrypto
import PassgateConfig
import PassgateCore
import ProviderAliyun
import ProviderCMCC
import ProviderJVerification
import ProviderShanyan
import Testing
import PassgateTestSupport

/// Every value that holds a credential, a token or a number prints only safe facts, whichever way
/// it is printed: interpolation, `String(reflecting:)`, `dump`, or inside an enclosing value.
@Suite("Secret-holding values print redacted")
struct SecretPrintingTests {
    static let secret = "SECRETsecret0042"
    static let appKey = "APPKEYappkey0077"
    static let token = "TOKENtoken00000099"
    static let phoneNumber = "13912341234"
    /// What must never appear; the number's middle digits too, in case it were masked wrongly.
    static let forbidden = [secret, appKey, token, phoneNumber, "1234123"]

    /// All the ways a value reaches text: the three a log call might use, and `dump`.
    static func printings(_ value: Any) -> [String] {
        var dumped = ""
        dump(value, to: &dumped)
        return ["\(value)", String(describing: value), String(reflecting: value), dumped]
    }

    static func expectRedacted(_ value: Any, shows expected: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        for text in printings(value) {
            for secret in forbidden {
                #expect(!text.contains(secret), "\(type(of: value)) printed a secret: \(text)", sourceLocation: sourceLocation)
            }
            for fact in expected {
                #expect(text.contains(fact), "\(type(of: value)) should show \(fact): \(text)", sourceLocation: sourceLocation)
            }
        }
    }

    static let rsaKey = Result<RSAPrivateKey, any Error>.success(TestRSAKeys.primary)

    @Test func cmccAppsAndTheirSigningPrintTheModeOnly() throws {
        let md5 = try CMCCApp(appId: "300011112222", signMode: .md5, secret: Self.secret, appKey: Self.appKey)
        Self.expectRedacted(md5, shows: ["300011112222", "md5", "keyType: 0"])
        Self.expectRedacted(md5.login, shows: ["md5"])
        let rsa = try CMCCApp(appId: "300011113333", signMode: .rsa, appKey: Self.appKey, privateKey: Self.rsaKey.get())
        Self.expectRedacted(rsa, shows: ["300011113333", "rsa"])
        // The key itself: its PEM must not be reachable through the app's printing either.
        let pem = try Self.rsaKey.get().pkcs8PEM()
        let body = pem.split(separator: "\n").dropFirst().first.map(String.init) ?? pem
        for text in Self.printings(rsa) { #expect(!text.contains(body)) }
    }

    @Test func cmccRequestsPrintTheirIdsNotTheTokenOrNumber() throws {
        let login = try CMCCLoginRequest(
            appId: "300011112222", token: Self.token, signing: .md5(secret: Self.secret), msgid: "msgid-1", systemtime: "20261124120000000")
        Self.expectRedacted(login, shows: ["msgid-1", "md5"])
        let verify = try CMCCVerifyRequest(
            appId: "300011112222", token: Self.token, phoneNumber: Self.phoneNumber, keying: .appKey(Self.appKey), msgId: "msg-2",
            timestamp: "20261124120000000")
        Self.expectRedacted(verify, shows: ["msg-2"])
        // The digest sent for the number is derived from it: not printed either.
        for text in Self.printings(verify) { #expect(!text.contains(verify.phoneNum)) }
    }

    @Test func aggregatorAppsAndRequestsPrintNoCredential() throws {
        let jverification = JVerificationApp(appId: "jv-app", appKey: Self.appKey, masterSecret: Self.secret, privateKey: nil)
        Self.expectRedacted(jverification, shows: ["jv-app"])
        let jvRequest = JVerificationRequest.verify(app: jverification, token: Self.token, phoneNumber: Self.phoneNumber, exID: "ex-1")
        Self.expectRedacted(jvRequest, shows: ["ex-1"])
        for text in Self.printings(jvRequest) { #expect(!text.contains(jvRequest.authorization)) }

        let shanyan = ShanyanApp(appId: "sy-app", appKey: Self.appKey)
        Self.expectRedacted(shanyan, shows: ["sy-app"])
        Self.expectRedacted(try ShanyanRequest(app: shanyan, token: Self.token, phoneNumber: Self.phoneNumber, outId: "out-1"), shows: ["out-1", "sign"])

        let aliyun = AliyunApp(appId: "ali-app", accessKeyId: "LTAIexample", accessKeySecret: Self.secret)
        Self.expectRedacted(aliyun, shows: ["ali-app"])
        let aliRequest = try AliyunRequest(
            app: aliyun, token: Self.token, phoneNumber: Self.phoneNumber, outId: nil, nonce: "nonce-1", timestamp: "2026-11-24T12:00:00Z")
        Self.expectRedacted(aliRequest, shows: ["nonce-1", "AccessCode"])
        for text in Self.printings(aliRequest) { #expect(!text.contains(aliRequest.signature)) }
    }

    @Test func outcomesAndProviderRequestsMaskTheNumberAndHideTheBody() {
        let outcome = PhoneNumberOutcome(phoneNumber: Self.phoneNumber, carrierTaskId: "task-9")
        Self.expectRedacted(outcome, shows: ["139****1234", "task-9"])
        let request = ProviderRequest(
            path: "/login?Signature=\(Self.secret)", headers: [("Authorization", "Basic \(Self.secret)")],
            body: Array("{\"token\":\"\(Self.token)\"}".utf8), msgid: "m-7")
        Self.expectRedacted(request, shows: ["/login", "Authorization", "m-7", "bodyBytes"])
    }

    @Test func settingsPrintWhetherASecretIsSetNotTheSecret() throws {
        var state = StateSettings()
        state.redisPassword = Self.secret
        state.replayKey = Array(Self.secret.utf8)
        state.redisURL = "redis://:\(Self.secret)@127.0.0.1:6379/0"
        Self.expectRedacted(state, shows: ["redisPassword: set", "replayKey: set"])
        for text in Self.printings(state) { #expect(!text.contains(String(describing: Array(Self.secret.utf8)))) }

        var provider = ProviderSettings(id: "cmcc", baseURLs: ["https://carrier.example"])
        provider.proxy = "http://user:\(Self.secret)@proxy.example:3128"
        Self.expectRedacted(provider, shows: ["cmcc", "proxy: set", "https://carrier.example"])

        // Enclosing values print their parts through the parts' own redaction.
        let app = AppSettings(provider: "cmcc", settings: try CMCCApp(appId: "300011112222", signMode: .md5, secret: Self.secret))
        Self.expectRedacted(app, shows: ["300011112222"])
    }
}
