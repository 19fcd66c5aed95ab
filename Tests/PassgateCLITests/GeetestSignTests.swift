import Foundation
import OpenSSLCrypto
import PassgateTestSupport
import Testing

/// `passgate sign` for a provider that reads `providerFields` (Geetest): `--field NAME=VALUE`
/// checked as the server checks it, verifications on `verifyBaseURLs`.
@Suite("passgate sign: providerFields and verifyBaseURLs")
struct GeetestSignTests {
    static let appKey = "0123456789abcdef0123456789abcdef"

    static func write() throws -> String {
        let directory = try ProcessRunner.temporaryDirectory()
        let yaml = """
            providers:
              geetest: {baseURLs: ["https://onelogin.geetest.com"], verifyBaseURLs: ["https://onepass.geetest.com"]}
            apps:
              - {appId: "b4f2a7c3d1e0f9a8b7c6d5e4f3a2b1c0", provider: geetest, appKey: "env:GT_APP_KEY"}
            """
        try yaml.write(toFile: "\(directory)/passgate.yaml", atomically: true, encoding: .utf8)
        return "\(directory)/passgate.yaml"
    }

    static func sign(_ arguments: [String]) async throws -> ProcessResult {
        try await ProcessRunner.passgate(
            ["sign", "--config", try write(), "--app-id", "b4f2a7c3d1e0f9a8b7c6d5e4f3a2b1c0", "--token", "tok"] + arguments, environment: ["GT_APP_KEY": appKey])
    }

    @Test("the phone-number request goes to baseURLs with the flow id; its sign is HMAC-SHA256 of the string it prints; the key never prints")
    func phoneNumber() async throws {
        let result = try await Self.sign(["--field", "processId=flow0001"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("POST https://onelogin.geetest.com/check_phone\n"), "\(result.stdout)")
        #expect(result.stdout.contains(#""process_id":"flow0001""#))
        let lines = result.stdout.split(separator: "\n")
        let stringToSign = try #require(lines.first { $0.hasPrefix("string to sign: ") }).dropFirst("string to sign: ".count)
        #expect(stringToSign.hasPrefix("b4f2a7c3d1e0f9a8b7c6d5e4f3a2b1c0&&"))
        let mac = try Digest.hmacSHA256(key: Array(Self.appKey.utf8), data: Array(stringToSign.utf8))
        #expect(lines.contains { $0 == "sign: \(Hex.lowercase(mac))" }, "\(result.stdout)")
        #expect(!result.stdout.contains(Self.appKey))
    }

    @Test("a verification goes to verifyBaseURLs")
    func verify() async throws {
        let result = try await Self.sign(["--field", "processId=flow0001", "--phone", "13900001234"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("POST https://onepass.geetest.com/v2.0/check_gateway\n"), "\(result.stdout)")
    }

    @Test("a missing, undeclared or malformed field exits 64 naming it", arguments: [
        ([String](), "--field processId: is required"), (["--field", "processId=f1", "--field", "procesId=x"], "--field procesId"),
        (["--field", "processId"], "--field must be NAME=VALUE"), (["--field", "processId=has space"], "--field processId"),
    ])
    func refusals(arguments: [String], mentions: String) async throws {
        let result = try await Self.sign(arguments)
        #expect(result.status == 64)
        #expect(result.stderr.contains(mentions), "\(result.stderr)")
    }
}
