import Foundation
import OpenSSLCrypto
import PassgateTestSupport
import Testing

/// A configuration with one app of each built-in provider, credentials from the environment.
enum SignFixture {
    static let environment = [
        "CMCC_SECRET": "0123456789ABCDEF0123456789ABCDEF", "CMCC_APPKEY": "ABCDEF0123456789",
        "JG_APPKEY": "7d431e42dfa6a6d693ac2d04", "JG_SECRET": "5e987ac6d2e04d95a9d8f0d1",
        "SY_APPKEY": "shanyanAppKey123", "ALI_ID": "testid", "ALI_SECRET": "testsecret",
        "YD_BIZ": "bizid0001", "YD_ID": "sid0001", "YD_KEY": "yidunSecretKey0001",
    ]

    /// Writes the configuration (and the JVerification app's key) into a fresh directory; returns its path.
    static func write() throws -> String {
        let directory = try ProcessRunner.temporaryDirectory()
        try TestRSAKeys.primaryPEM.write(toFile: "\(directory)/jg.pem", atomically: true, encoding: .utf8)
        let yaml = """
            providers:
              cmcc: {baseURLs: ["https://www.cmpassport.com"]}
              jverification: {baseURLs: ["https://api.verification.jpush.cn"]}
              shanyan: {baseURLs: ["https://wsflash.253.com"]}
              aliyun: {baseURLs: ["https://dypnsapi.aliyuncs.com"]}
              yidun: {baseURLs: ["https://ye.dun.163.com"]}
            apps:
              - {appId: "300011111111", provider: cmcc, signMode: md5, secret: "env:CMCC_SECRET", appKey: "env:CMCC_APPKEY"}
              - {appId: "jg-app", provider: jverification, appKey: "env:JG_APPKEY", secret: "env:JG_SECRET", privateKey: "file:\(directory)/jg.pem"}
              - {appId: "jg-verify-only", provider: jverification, appKey: "env:JG_APPKEY", secret: "env:JG_SECRET"}
              - {appId: "abcd1234", provider: shanyan, appKey: "env:SY_APPKEY"}
              - {appId: "ali-app", provider: aliyun, accessKeyId: "env:ALI_ID", secret: "env:ALI_SECRET"}
              - {appId: "yd-app", provider: yidun, businessId: "env:YD_BIZ", secretId: "env:YD_ID", secretKey: "env:YD_KEY"}
            """
        try yaml.write(toFile: "\(directory)/passgate.yaml", atomically: true, encoding: .utf8)
        return "\(directory)/passgate.yaml"
    }

    static func sign(_ config: String, _ arguments: [String]) async throws -> ProcessResult {
        try await ProcessRunner.passgate(["sign", "--config", config] + arguments, environment: environment)
    }

    static func json(_ line: some StringProtocol) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
}

@Suite("passgate sign: one host for every registered provider")
struct SignCommandTests {
    @Test("a CMCC app's login request carries the sign the provider computes from the fields and the secret, which never prints")
    func cmccLogin() async throws {
        let config = try SignFixture.write()
        let result = try await SignFixture.sign(config, ["--app-id", "300011111111", "--token", "STsidABC"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("POST https://www.cmpassport.com/unisdk/rsapi/loginTokenValidate\n"))
        #expect(result.stdout.contains("provider: cmcc"))
        #expect(!result.stdout.contains("0123456789ABCDEF0123456789ABCDEF"))
        #expect(result.stdout.contains("signed string: 3000111111112.0"), "\(result.stdout)")
        #expect(result.stdout.contains("STsidABC<secret: 32 chars, 01…EF>"))
        let line = try #require(result.stdout.split(separator: "\n").first { $0.hasPrefix("{") })
        let body = try #require(try SignFixture.json(line) as? [String: String])
        let input = ["appid", "version", "msgid", "systemtime", "strictcheck", "token"].map { body[$0] ?? "" }.joined() + SignFixture.environment["CMCC_SECRET"]!
        #expect(body["sign"] == Hex.uppercase(try Digest.md5(Array(input.utf8))))
    }

    @Test("a CMCC verification explains phoneNum and the signed string without the appKey")
    func cmccVerify() async throws {
        let config = try SignFixture.write()
        let result = try await SignFixture.sign(config, ["--app-id", "300011111111", "--token", "STsidABC", "--phone", "13800138000"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("/openapi/rs/tokenValidate"))
        #expect(result.stdout.contains("phoneNum input: 13800138000<appKey: 16 chars>"))
        #expect(!result.stdout.contains("ABCDEF0123456789"))
    }

    @Test("a JVerification app's Basic header is masked unless --show-secrets, and then is the documented vector")
    func jverificationHeader() async throws {
        let config = try SignFixture.write()
        let masked = try await SignFixture.sign(config, ["--app-id", "jg-app", "--token", "tok-1", "--request-id", "req-7"])
        #expect(masked.status == 0, "\(masked.stderr)")
        #expect(masked.stdout.contains("POST https://api.verification.jpush.cn/v1/web/loginTokenVerify"))
        #expect(masked.stdout.contains(#"{"loginToken":"tok-1","exID":"req-7"}"#))
        #expect(!masked.stdout.contains("5e987ac6d2e04d95a9d8f0d1") && !masked.stdout.contains("N2Q0MzFl"))
        #expect(masked.stdout.contains("Master Secret of 24 characters"))
        let shown = try await SignFixture.sign(config, ["--app-id", "jg-app", "--token", "tok-1", "--show-secrets"])
        #expect(shown.stdout.contains("Authorization: Basic N2Q0MzFlNDJkZmE2YTZkNjkzYWMyZDA0OjVlOTg3YWM2ZDJlMDRkOTVhOWQ4ZjBkMQ=="))
    }

    @Test("an app that cannot make the call gets its provider's reason, naming the setting, exit 64")
    func providerRefusal() async throws {
        let config = try SignFixture.write()
        let result = try await SignFixture.sign(config, ["--app-id", "jg-verify-only", "--token", "tok-1"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("privateKey"), "\(result.stderr)")
        let verify = try await SignFixture.sign(config, ["--app-id", "jg-verify-only", "--token", "tok-1", "--phone", "13900001234", "--request-id", "pg-sign", "--body-only"])
        #expect(try SignFixture.json(verify.stdout) as? [String: String] == ["token": "tok-1", "phone": "13900001234", "exID": "pg-sign"])
    }

    @Test("a Shanyan request's sign is HMAC-SHA256 under the appKey of the signed string it prints")
    func shanyan() async throws {
        let config = try SignFixture.write()
        let result = try await SignFixture.sign(config, ["--app-id", "abcd1234", "--token", "A2-xyz", "--request-id", "r1"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("POST https://wsflash.253.com/open/flashsdk/mobile-query"))
        #expect(result.stdout.contains("signed string: appIdabcd1234outIdr1tokenA2-xyz"))
        let mac = try Digest.hmacSHA256(key: Array("shanyanAppKey123".utf8), data: Array("appIdabcd1234outIdr1tokenA2-xyz".utf8))
        #expect(result.stdout.contains("appId=abcd1234&outId=r1&token=A2-xyz&sign=\(Hex.lowercase(mac))"))
    }

    @Test("an Alibaba Cloud request's Signature is HMAC-SHA1 of the string to sign it prints; the secret never prints")
    func aliyun() async throws {
        let config = try SignFixture.write()
        let result = try await SignFixture.sign(config, ["--app-id", "ali-app", "--token", "Dfafdafad5422abc"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        let stringToSign = try #require(lines.first { $0.hasPrefix("string to sign: ") }).dropFirst("string to sign: ".count)
        #expect(stringToSign.hasPrefix("POST&%2F&AccessKeyId%3Dtestid%26AccessToken%3DDfafdafad5422abc"))
        let signature = Data(try Digest.hmacSHA1(key: Array("testsecret&".utf8), data: Array(stringToSign.utf8))).base64EncodedString()
        #expect(lines.contains { $0 == "Signature: \(signature)" }, "\(result.stdout)")
        #expect(!result.stdout.contains("testsecret"))
    }

    @Test("a Yidun request takes its accessToken from --field; its signature is the MD5 of the string it prints; without the field exit 64 naming it")
    func yidunField() async throws {
        let config = try SignFixture.write()
        let result = try await SignFixture.sign(config, ["--app-id", "yd-app", "--token", "yidunTOKEN", "--field", "accessToken=CMCCtoken-abc"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("POST https://ye.dun.163.com/v1/oneclick/check\n") && !result.stdout.contains("yidunSecretKey0001"))
        let toSign = try #require(result.stdout.split(separator: "\n").first { $0.hasPrefix("string to sign: ") }?.dropFirst(16))
        #expect(toSign.hasPrefix("accessTokenCMCCtoken-abcbusinessIdbizid0001") && toSign.hasSuffix("<secretKey>"), "\(result.stdout)")
        let signature = try #require(result.stdout.split(separator: "\n").first { $0.hasPrefix("signature: ") }?.dropFirst(11))
        #expect(String(signature) == Hex.lowercase(try Digest.md5(Array((toSign.dropLast(11) + "yidunSecretKey0001").utf8))))
        let missing = try await SignFixture.sign(config, ["--app-id", "yd-app", "--token", "yidunTOKEN"])
        #expect(missing.status == 64 && missing.stderr.contains("--field accessToken: is required"), "\(missing.stderr)")
        let undeclared = try await SignFixture.sign(config, ["--app-id", "ali-app", "--token", "t", "--field", "accessToken=x"])
        #expect(undeclared.status == 64 && undeclared.stderr.contains("--field accessToken"), "\(undeclared.stderr)")
    }

    @Test("--json with --tokens prints one sendable request per line: method, url, headers, body")
    func jsonBatch() async throws {
        let config = try SignFixture.write()
        let tokens = "\(FileManager.default.temporaryDirectory.path)/passgate-tokens-\(UUID().uuidString)"
        try "t1\nt2 13900001234\n".write(toFile: tokens, atomically: true, encoding: .utf8)
        let result = try await SignFixture.sign(config, ["--app-id", "jg-app", "--tokens", tokens, "--json", "--show-secrets", "--base-url", "http://127.0.0.1:8090", "--request-id", "pg-sign"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = try result.stdout.split(separator: "\n").map(SignFixture.json)
        #expect(lines.count == 2)
        #expect(lines.map { $0["url"] as? String } == ["http://127.0.0.1:8090/v1/web/loginTokenVerify", "http://127.0.0.1:8090/v1/web/verify"])
        #expect(lines.map { $0["operation"] as? String } == ["phone_number", "verify"])
        #expect((lines[0]["headers"] as? [String: String])?["Authorization"]?.hasPrefix("Basic ") == true)
        #expect(lines[1]["body"] as? String == #"{"token":"t2","phone":"13900001234","exID":"pg-sign"}"#)
    }

    @Test(
        "bad arguments exit 64 with a message naming the option",
        arguments: [
            (["--app-id", "300011111111"], "--token"),
            (["--app-id", "nope", "--token", "t"], "--app-id"),
            (["--app-id", "300011111111", "--token", "t", "--provider", "shanyan"], "--provider"),
            (["--app-id", "300011111111", "--token", "t t"], "--token"),
            (["--app-id", "300011111111", "--token", "t", "--phone", "12345"], "--phone"),
        ]
    )
    func badArguments(arguments: [String], mentions: String) async throws {
        let result = try await SignFixture.sign(try SignFixture.write(), arguments)
        #expect(result.status == 64)
        #expect(result.stderr.contains(mentions), "\(result.stderr)")
    }

    @Test("an unset env: secret in the configuration exits 78 naming the variable")
    func unsetSecret() async throws {
        let result = try await ProcessRunner.passgate(["sign", "--config", try SignFixture.write(), "--app-id", "ali-app", "--token", "t"])
        #expect(result.status == 78)
        #expect(result.stderr.contains("ALI_SECRET"), "\(result.stderr)")
    }

    @Test("systemtime is Beijing time whatever the process time zone", arguments: ["UTC", "America/New_York", "Asia/Shanghai"])
    func beijingTimeInAnyZone(zone: String) async throws {
        let config = try SignFixture.write()
        let before = Date()
        let result = try await ProcessRunner.passgate(
            ["sign", "--config", config, "--app-id", "300011111111", "--token", "t", "--body-only"], environment: SignFixture.environment.merging(["TZ": zone]) { $1 })
        let after = Date()
        #expect(result.status == 0, "\(result.stderr)")
        let body = try #require(try SignFixture.json(result.stdout) as? [String: String])
        let formatter = try #require(DateFormatter.pinned("yyyyMMddHHmmssSSS", zone: "Asia/Shanghai"))
        let systemtime = try #require(body["systemtime"])
        let sent = try #require(formatter.date(from: systemtime))
        // Made while the process ran; any other zone would be off by whole hours.
        #expect(sent >= before.addingTimeInterval(-1) && sent <= after.addingTimeInterval(1), "systemtime \(systemtime) under TZ=\(zone) is not Beijing now")
    }
}

@Suite("passgate decrypt-msisdn --app-id: the app's provider decrypts")
struct DecryptByAppTests {
    @Test("Shanyan's AES form decrypts with the configured appKey; an app whose numbers come in clear says so")
    func byApp() async throws {
        let config = try SignFixture.write()
        let result = try await ProcessRunner.passgate(
            ["decrypt-msisdn", "--config", config, "--app-id", "abcd1234", "07186da582239722ab1efde384d86834"], environment: SignFixture.environment)
        #expect(result.status == 0 && result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "13900001234", "\(result.stderr)")
        let clear = try await ProcessRunner.passgate(["decrypt-msisdn", "--config", config, "--app-id", "ali-app", "x"], environment: SignFixture.environment)
        #expect(clear.status == 64 && clear.stderr.contains("in clear"), "\(clear.stderr)")
        let neither = try await ProcessRunner.passgate(["decrypt-msisdn", "07186da582239722ab1efde384d86834"])
        #expect(neither.status == 64 && neither.stderr.contains("--app-id"))
    }
}
