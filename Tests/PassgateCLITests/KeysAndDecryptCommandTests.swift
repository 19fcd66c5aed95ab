import Foundation
import Testing

@Suite("passgate keys generate and decrypt-msisdn")
struct KeysAndDecryptCommandTests {
    @Test("keys generate writes a PKCS#8 key openssl accepts, mode 600, and the console's base64 DER public key")
    func generate() async throws {
        let dir = try ProcessRunner.temporaryDirectory() + "/keys"
        let result = try await ProcessRunner.passgate(["keys", "generate", "--bits", "1024", "--out", dir])
        #expect(result.status == 0, "\(result.stderr)")
        let pem = try String(contentsOfFile: "\(dir)/private.pem", encoding: .utf8)
        #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----"))
        let attributes = try FileManager.default.attributesOfItem(atPath: "\(dir)/private.pem")
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(try await ProcessRunner.openssl(["pkey", "-in", "\(dir)/private.pem", "-check", "-noout"]).contains("valid"))
        let base64 = try String(contentsOfFile: "\(dir)/public.b64", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(!base64.contains("\n") && result.stdout.contains(base64))
        try #require(Data(base64Encoded: base64)).write(to: URL(fileURLWithPath: "\(dir)/public.der"))
        let fromDER = try await ProcessRunner.openssl(["pkey", "-pubin", "-inform", "DER", "-in", "\(dir)/public.der"])
        let fromPrivate = try await ProcessRunner.openssl(["pkey", "-in", "\(dir)/private.pem", "-pubout"])
        #expect(fromDER == fromPrivate)
    }

    @Test("keys generate refuses to overwrite without --force (exit 73) and rejects odd sizes (exit 64)")
    func generateRefusals() async throws {
        let dir = try ProcessRunner.temporaryDirectory()
        #expect(try await ProcessRunner.passgate(["keys", "generate", "--bits", "1024", "--out", dir]).status == 0)
        let before = try String(contentsOfFile: "\(dir)/private.pem", encoding: .utf8)
        let again = try await ProcessRunner.passgate(["keys", "generate", "--bits", "1024", "--out", dir])
        #expect(again.status == 73 && again.stderr.contains("--force"))
        #expect(try String(contentsOfFile: "\(dir)/private.pem", encoding: .utf8) == before)
        #expect(try await ProcessRunner.passgate(["keys", "generate", "--bits", "512", "--out", dir]).status == 64)
    }

    @Test("decrypt-msisdn decrypts an openssl-made PKCS#1 ciphertext given as hex or base64")
    func decrypt() async throws {
        let dir = try ProcessRunner.temporaryDirectory()
        try await ProcessRunner.openssl(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", "\(dir)/key.pem"])
        try await ProcessRunner.openssl(["pkey", "-in", "\(dir)/key.pem", "-pubout", "-out", "\(dir)/pub.pem"])
        try await ProcessRunner.openssl(["pkeyutl", "-encrypt", "-pubin", "-inkey", "\(dir)/pub.pem", "-pkeyopt", "rsa_padding_mode:pkcs1", "-in", "/dev/stdin", "-out", "\(dir)/c.bin"], stdin: Data("13800138000".utf8))
        let cipher = try Data(contentsOf: URL(fileURLWithPath: "\(dir)/c.bin"))
        let hex = cipher.map { String(format: "%02X", $0) }.joined()
        for form in [hex, hex.lowercased(), cipher.base64EncodedString()] {
            let result = try await ProcessRunner.passgate(["decrypt-msisdn", "--private-key", "\(dir)/key.pem", form])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == "13800138000\n")
        }
    }

    @Test("decrypt-msisdn with the wrong key exits 65, with a missing key file exits 66, with a public key exits 65")
    func decryptFailures() async throws {
        let dir = try ProcessRunner.temporaryDirectory()
        try await ProcessRunner.openssl(["genrsa", "-out", "\(dir)/a.pem", "1024"])
        try await ProcessRunner.openssl(["genrsa", "-out", "\(dir)/b.pem", "1024"])
        try await ProcessRunner.openssl(["pkey", "-in", "\(dir)/a.pem", "-pubout", "-out", "\(dir)/a.pub"])
        try await ProcessRunner.openssl(["pkeyutl", "-encrypt", "-pubin", "-inkey", "\(dir)/a.pub", "-pkeyopt", "rsa_padding_mode:pkcs1", "-in", "/dev/stdin", "-out", "\(dir)/c.bin"], stdin: Data("13800138000".utf8))
        let hex = try Data(contentsOf: URL(fileURLWithPath: "\(dir)/c.bin")).map { String(format: "%02x", $0) }.joined()
        let wrong = try await ProcessRunner.passgate(["decrypt-msisdn", "--private-key", "\(dir)/b.pem", hex])
        #expect(wrong.status == 65 && wrong.stderr.contains("private key"), "\(wrong.stderr)")
        let missing = try await ProcessRunner.passgate(["decrypt-msisdn", "--private-key", "\(dir)/nope.pem", hex])
        #expect(missing.status == 66 && missing.stderr.contains("nope.pem"))
        let publicOnly = try await ProcessRunner.passgate(["decrypt-msisdn", "--private-key", "\(dir)/a.pub", hex])
        #expect(publicOnly.status == 65 && publicOnly.stderr.contains("public"))
        let garbage = try await ProcessRunner.passgate(["decrypt-msisdn", "--private-key", "\(dir)/a.pem", "not-a-ciphertext"])
        #expect(garbage.status == 65 && garbage.stderr.contains("neither hex nor base64"))
    }
}
