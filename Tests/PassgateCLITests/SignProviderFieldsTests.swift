import Foundation
import OpenSSLCrypto
import PassgateTestSupport
import Testing

/// `passgate sign` for providers that read `providerFields` (`--field NAME=VALUE`) and for the
/// API gateway's signature: MobTech and Umeng, with the notes' vectors' credentials.
@Suite("passgate sign: providerFields and gateway signatures")
struct SignProviderFieldsTests {
    static let environment = ["MOB_SECRET": "mobAppSecret0001xyz", "UM_KEY": "204000001", "UM_SECRET": "umAppSecret0001"]

    static func write() throws -> String {
        let directory = try ProcessRunner.temporaryDirectory()
        let yaml = """
            providers:
              mobtech: {baseURLs: ["https://identify-verify.dutils.com"]}
              umeng: {baseURLs: ["https://verify5.market.alicloudapi.com"]}
            apps:
              - {appId: "moba1b2c3", provider: mobtech, appSecret: "env:MOB_SECRET"}
              - {appId: "umengappkey01", provider: umeng, gatewayAppKey: "env:UM_KEY", gatewayAppSecret: "env:UM_SECRET"}
            """
        try yaml.write(toFile: "\(directory)/passgate.yaml", atomically: true, encoding: .utf8)
        return "\(directory)/passgate.yaml"
    }

    static func sign(_ arguments: [String]) async throws -> ProcessResult {
        try await ProcessRunner.passgate(["sign", "--config", try write()] + arguments, environment: environment)
    }

    @Test("MobTech: the fields given with --field are signed; the string to sign shows the AppSecret by its length only")
    func mobtech() async throws {
        let result = try await Self.sign(["--app-id", "moba1b2c3", "--token", "mobtoken123", "--field", "opToken=optok456", "--field", "operator=CMCC"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("POST https://identify-verify.dutils.com/auth/auth/sdkClientFreeLogin\n"), "\(result.stdout)")
        #expect(result.stdout.contains("appkey=moba1b2c3&opToken=optok456&operator=CMCC&timestamp="), "\(result.stdout)")
        #expect(result.stdout.contains("+ AppSecret (19 characters)") && !result.stdout.contains("mobAppSecret0001xyz"), "\(result.stdout)")
    }

    @Test("MobTech without its fields, or with one it does not read, is refused naming the field")
    func mobtechRefusals() async throws {
        let missing = try await Self.sign(["--app-id", "moba1b2c3", "--token", "mobtoken123"])
        #expect(missing.status != 0 && missing.stderr.contains("--field opToken: is required"), "\(missing.stderr)")
        let undeclared = try await Self.sign(["--app-id", "umengappkey01", "--token", "t", "--field", "opToken=x"])
        #expect(undeclared.status != 0 && undeclared.stderr.contains("--field opToken"), "\(undeclared.stderr)")
    }

    @Test("Umeng: the gateway's StringToSign and X-Ca-Signature, the secret never printed")
    func umeng() async throws {
        let result = try await Self.sign(["--app-id", "umengappkey01", "--token", "tok"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("POST https://verify5.market.alicloudapi.com/api/v1/mobile/info?appkey=umengappkey01\n"), "\(result.stdout)")
        #expect(result.stdout.contains("x-ca-key:204000001") && result.stdout.contains("X-Ca-Signature"), "\(result.stdout)")
        #expect(!result.stdout.contains("umAppSecret0001"))
    }
}
