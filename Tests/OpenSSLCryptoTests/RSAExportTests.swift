import Foundation
import OpenSSLCrypto
import Testing
import PassgateTestSupport

/// What we export (`pkcs8PEM()`, `der()`, `base64DER()`, `pem()`) must be read back by the
/// `openssl` CLI as the same key, and by us.
@Suite("RSA export round-trips through openssl")
struct RSAExportTests {
    enum Source: String, CaseIterable, Sendable, CustomStringConvertible {
        case generated1024, generated2048, loadedFromPKCS1PEM
        var description: String { rawValue }

        func key() async throws -> RSAPrivateKey {
            switch self {
            // Made by generate(bits:) once per process; generate(bits:) itself is tested below.
            case .generated1024: TestRSAKeys.primary1024
            case .generated2048: TestRSAKeys.primary
            case .loadedFromPKCS1PEM: try await RSAPrivateKey(text: RSAFixtures.material(bits: 1024).pkcs1PEM)
            }
        }
    }

    @Test("pkcs8PEM() is a PKCS#8 key that openssl pkey -check accepts", arguments: Source.allCases)
    func pkcs8PEMPassesOpenSSLCheck(source: Source) async throws {
        let key = try await source.key()
        let pem = try key.pkcs8PEM()
        #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----\n"))
        #expect(pem.hasSuffix("-----END PRIVATE KEY-----\n"))
        try await OpenSSLCLI.withScratchDirectory { cli in
            try cli.write("ours.pem", pem)
            let check = try await cli.run(["pkey", "-in", "ours.pem", "-check", "-noout"])
            #expect(String(decoding: check, as: UTF8.self).contains("Key is valid"))
            let text = try await cli.run(["pkey", "-in", "ours.pem", "-text", "-noout"])
            #expect(String(decoding: text, as: UTF8.self).contains("Private-Key: (\(key.bits) bit, 2 primes)"))
            #expect(String(decoding: text, as: UTF8.self).contains("publicExponent: 65537"))
            // openssl derives the same public key from our PEM.
            let publicDER = try await cli.run(["pkey", "-in", "ours.pem", "-pubout", "-outform", "DER"])
            #expect(try publicDER == key.publicKey.der())
            // …and signs with it exactly as we do.
            let message = Array("sign me \(source)".utf8)
            try cli.write("msg.txt", message)
            #expect(try await cli.run(["dgst", "-sha256", "-sign", "ours.pem", "msg.txt"]) == key.sign(message))
        }
        // And we read our own export back as the same key.
        let reloaded = try RSAPrivateKey(text: pem)
        #expect(reloaded.bits == key.bits)
        #expect(try reloaded.publicKey.der() == key.publicKey.der())
    }

    @Test("publicKey.base64DER() is one line of base64 that openssl pkey -pubin -inform DER reads", arguments: Source.allCases)
    func base64DERReadByOpenSSL(source: Source) async throws {
        let key = try await source.key()
        let base64 = try key.publicKey.base64DER()
        #expect(!base64.contains { $0.isWhitespace })
        let der = [UInt8](try #require(Data(base64Encoded: base64)))
        #expect(der == (try key.publicKey.der()))
        #expect(der.containsSubsequence(rsaEncryptionOID), "SubjectPublicKeyInfo, not bare PKCS#1")
        try await OpenSSLCLI.withScratchDirectory { cli in
            try cli.write("pub.der", der)
            let reencoded = try await cli.run(["pkey", "-pubin", "-inform", "DER", "-in", "pub.der", "-outform", "DER"])
            #expect(reencoded == der)
            let text = String(decoding: try await cli.run(["pkey", "-pubin", "-inform", "DER", "-in", "pub.der", "-text", "-noout"]), as: UTF8.self)
            #expect(text.contains("Public-Key: (\(key.bits) bit)"))
            // The exported public key verifies a signature made with the private half by openssl.
            try cli.write("key.pem", try key.pkcs8PEM())
            try cli.write("pub.pem", try key.publicKey.pem())
            try cli.write("msg.txt", "round trip")
            let signature = try await cli.run(["dgst", "-sha256", "-sign", "key.pem", "msg.txt"])
            try cli.write("sig.bin", signature)
            let verified = try await cli.run(["dgst", "-sha256", "-verify", "pub.pem", "-signature", "sig.bin", "msg.txt"])
            #expect(String(decoding: verified, as: UTF8.self).contains("Verified OK"))
            #expect(try RSAPublicKey(text: base64).verify(signature, for: Array("round trip".utf8)))
        }
    }

    @Test("publicKey.pem() is read by openssl pkey -pubin and by us", arguments: Source.allCases)
    func pemReadByOpenSSL(source: Source) async throws {
        let key = try await source.key()
        let pem = try key.publicKey.pem()
        #expect(pem.hasPrefix("-----BEGIN PUBLIC KEY-----\n"))
        try await OpenSSLCLI.withScratchDirectory { cli in
            try cli.write("pub.pem", pem)
            #expect(try await cli.run(["pkey", "-pubin", "-in", "pub.pem", "-outform", "DER"]) == key.publicKey.der())
        }
        #expect(try RSAPublicKey(text: pem).der() == key.publicKey.der())
    }

    @Test("generate(bits:) makes distinct keys of the requested size", arguments: [1024, 2048])
    func generate(bits: Int) throws {
        let first = try RSAPrivateKey.generate(bits: bits)
        let second = try RSAPrivateKey.generate(bits: bits)
        #expect(first.bits == bits)
        #expect(second.bits == bits)
        #expect(try first.publicKey.der() != second.publicKey.der())
        let message = Array("x".utf8)
        #expect(try first.publicKey.verify(first.sign(message), for: message))
        #expect(try !second.publicKey.verify(first.sign(message), for: message))
    }
}
