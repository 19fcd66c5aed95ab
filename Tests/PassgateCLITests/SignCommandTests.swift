import Foundation
import OpenSSLCrypto
import PassgateTestSupport
import Testing

@Suite("passgate sign")
struct SignCommandTests {
    static let vectorArguments = [
        "sign", "login-token", "--app-id", "300011111111", "--token", "STsid0000001551151128045KPXuevVDFWyMSy00gbDjxTnn3BVKqXJJ",
        "--msgid", "bed1dc7f6cd645b9be9006ae08040c93", "--systemtime", "20190226111842617",
    ]

    @Test("login-token in MD5 mode prints the vector's body and the signed string with the secret redacted")
    func md5Vector() async throws {
        let result = try await ProcessRunner.passgate(Self.vectorArguments + ["--secret", "0123456789ABCDEF0123456789ABCDEF"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#""sign":"D377B8E67869D5CEF6ECC55A59CA55FD""#))
        #expect(result.stdout.contains("POST https://www.cmpassport.com/unisdk/rsapi/loginTokenValidate"))
        #expect(result.stdout.contains("signed string: 3000111111112.0bed1dc7f6cd645b9be9006ae08040c93201902261118426170STsid"))
        #expect(!result.stdout.contains("0123456789ABCDEF0123456789ABCDEF"))
    }

    @Test("a secret given as env:NAME signs exactly like the literal")
    func secretFromEnvironment() async throws {
        let result = try await ProcessRunner.passgate(Self.vectorArguments + ["--secret", "env:CLI_TEST_SECRET", "--body-only"], environment: ["CLI_TEST_SECRET": "0123456789ABCDEF0123456789ABCDEF"])
        #expect(result.status == 0, "\(result.stderr)")
        let body = try #require(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: String])
        #expect(body["sign"] == "D377B8E67869D5CEF6ECC55A59CA55FD")
    }

    @Test("login-token in RSA mode with an openssl PKCS#1 key produces a signature openssl verifies")
    func rsaModeVerifiesWithOpenSSL() async throws {
        let dir = try ProcessRunner.temporaryDirectory()
        try await ProcessRunner.openssl(["genrsa", "-traditional", "-out", "\(dir)/key.pem", "2048"])
        try await ProcessRunner.openssl(["pkey", "-in", "\(dir)/key.pem", "-pubout", "-out", "\(dir)/pub.pem"])
        let result = try await ProcessRunner.passgate(["sign", "login-token", "--app-id", "300011111111", "--token", "STsidABC", "--private-key", "\(dir)/key.pem", "--body-only"])
        #expect(result.status == 0, "\(result.stderr)")
        let body = try #require(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: String])
        #expect(body["encryptionalgorithm"] == "RSA")
        let signature = try #require(body["sign"].flatMap { Hex.decode($0) })
        try Data(signature).write(to: URL(fileURLWithPath: "\(dir)/sig.bin"))
        try Data("300011111111STsidABC".utf8).write(to: URL(fileURLWithPath: "\(dir)/msg.txt"))
        let verified = try await ProcessRunner.openssl(["dgst", "-sha256", "-verify", "\(dir)/pub.pem", "-signature", "\(dir)/sig.bin", "\(dir)/msg.txt"])
        #expect(verified.contains("Verified OK"))
    }

    @Test("verify-number prints the protocol vector's phoneNum and sign")
    func verifyNumberVector() async throws {
        let result = try await ProcessRunner.passgate([
            "sign", "verify-number", "--app-id", "300011111111", "--token", "STsid0000001515028196605yc1oYNTuPlTlLT10AR3ywr2WApEq14JH",
            "--phone", "13800138000", "--app-key", "ABCDEF0123456789", "--msgid", "8ADFF305C7FCB3E1B1AECC130792FBD0", "--timestamp", "20180104090953788",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#""phoneNum":"91481A516B564965D2858954EB17B4351BB6BF649E6D1A77F2ADE4CB4CBEF4E6""#))
        #expect(result.stdout.contains(#""sign":"48E87A724F2E3406B3B0DC7DD99621C8CC2574045A7DB90B96B4939632531E1B""#))
        #expect(!result.stdout.contains("ABCDEF0123456789"))
    }

    @Test(
        "bad arguments exit 64 with a message naming the option",
        arguments: [
            (["sign", "login-token", "--app-id", "300011111111", "--token", "t"], "--secret"),
            (["sign", "login-token", "--app-id", "300011111111", "--token", "t", "--secret", "s", "--private-key", "k"], "--secret"),
            (["sign", "login-token", "--app-id", "3000 1111", "--token", "t", "--secret", "s"], "--app-id"),
            (["sign", "login-token", "--app-id", "1", "--token", "t", "--secret", "s", "--systemtime", "2019-02-26"], "--systemtime"),
            (["sign", "verify-number", "--app-id", "1", "--token", "t", "--app-key", "k", "--phone", "12345"], "--phone"),
            (["sign", "login-token", "--app-id", "1"], "--token"),
        ]
    )
    func badArguments(arguments: [String], mentions: String) async throws {
        let result = try await ProcessRunner.passgate(arguments)
        #expect(result.status == 64)
        #expect(result.stderr.contains(mentions), "\(result.stderr)")
    }

    @Test("an unset env: secret exits 66")
    func unsetEnvironmentSecret() async throws {
        let result = try await ProcessRunner.passgate(Self.vectorArguments + ["--secret", "env:PASSGATE_TEST_SURELY_UNSET"])
        #expect(result.status == 66)
        #expect(result.stderr.contains("PASSGATE_TEST_SURELY_UNSET"))
    }

    @Test("systemtime is Beijing time whatever the process time zone", arguments: ["UTC", "America/New_York", "Asia/Shanghai"])
    func beijingTimeInAnyZone(zone: String) async throws {
        let before = Date()
        let result = try await ProcessRunner.passgate(["sign", "login-token", "--app-id", "1", "--token", "t", "--secret", "s", "--body-only"], environment: ["TZ": zone])
        let after = Date()
        #expect(result.status == 0, "\(result.stderr)")
        let body = try #require(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: String])
        let formatter = try #require(DateFormatter.pinned("yyyyMMddHHmmssSSS", zone: "Asia/Shanghai"))
        let systemtime = try #require(body["systemtime"])
        let sent = try #require(formatter.date(from: systemtime))
        // Made while the process ran; any other zone would be off by whole hours.
        #expect(sent >= before.addingTimeInterval(-1) && sent <= after.addingTimeInterval(1), "systemtime \(systemtime) under TZ=\(zone) is not Beijing now")
    }
}
