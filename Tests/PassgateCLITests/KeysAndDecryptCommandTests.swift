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

    @Test("keys generate creates private.pem as mode 0600 (stat), refuses an existing one or a dangling symbolic link there, and names the path")
    func generateExclusively() async throws {
        let dir = try ProcessRunner.temporaryDirectory()
        let created = try await ProcessRunner.passgate(["keys", "generate", "--bits", "1024", "--out", "\(dir)/fresh"])
        #expect(created.status == 0, "\(created.stderr)")
        var info = stat()
        #expect(stat("\(dir)/fresh/private.pem", &info) == 0)
        #expect(info.st_mode & 0o7777 == 0o600, "mode \(String(info.st_mode & 0o7777, radix: 8))")

        // Only the private key is there: nothing is written, not even the public files.
        try FileManager.default.createDirectory(atPath: "\(dir)/taken", withIntermediateDirectories: true)
        try "an operator's key".write(toFile: "\(dir)/taken/private.pem", atomically: false, encoding: .utf8)
        let taken = try await ProcessRunner.passgate(["keys", "generate", "--bits", "1024", "--out", "\(dir)/taken"])
        #expect(taken.status == 73 && taken.stderr.contains("'\(dir)/taken/private.pem' exists"), "\(taken.stderr)")
        #expect(try String(contentsOfFile: "\(dir)/taken/private.pem", encoding: .utf8) == "an operator's key")
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/taken/public.pem"))

        // A link planted where the key goes is not followed: its target is never created.
        try FileManager.default.createDirectory(atPath: "\(dir)/planted", withIntermediateDirectories: true)
        #expect(symlink("\(dir)/elsewhere.pem", "\(dir)/planted/private.pem") == 0)
        let planted = try await ProcessRunner.passgate(["keys", "generate", "--bits", "1024", "--out", "\(dir)/planted"])
        #expect(planted.status == 73 && planted.stderr.contains("\(dir)/planted/private.pem"), "\(planted.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/elsewhere.pem"))
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/planted/public.pem"))
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
