import Foundation
import OpenSSLCrypto
import Testing

/// Signatures and ciphertexts exchanged with the `openssl` command line, for every private-key
/// form {PKCS#1 PEM, PKCS#8 PEM, base64 PKCS#1 DER, base64 PKCS#8 DER, the latter wrapped with
/// CRLF} x {1024, 2048} bits. openssl always works from its own PEM files, so a key we mis-load
/// fails here.
@Suite("RSA cross-checked with the openssl CLI")
struct RSAOpenSSLCrossCheckTests {
    /// A loginTokenValidate RSA-mode payload (appid + token) made unique per case.
    static func message(_ tag: String) -> [UInt8] {
        Array("300011111111STsid0000001551151128045KPXuevVDFWyMSy00gbDjxTnn3BVKqXJJ#\(tag)".utf8)
    }

    @Test("our SHA256withRSA signature verifies with openssl dgst -verify", arguments: PrivateKeyFormat.allCases, RSAFixtures.sizes)
    func ourSHA256SignatureVerifiesWithOpenSSL(format: PrivateKeyFormat, bits: Int) async throws {
        let material = try await RSAFixtures.material(bits: bits)
        let key = try RSAPrivateKey(text: format.text(of: material))
        let message = Self.message("\(format)-\(bits)")
        let signature = try key.sign(message, digest: .sha256)
        #expect(signature.count == bits / 8)
        try await OpenSSLCLI.withScratchDirectory { cli in
            try cli.write("pub.pem", material.publicPEM)
            try cli.write("msg.txt", message)
            try cli.write("sig.bin", signature)
            let verified = try await cli.run(["dgst", "-sha256", "-verify", "pub.pem", "-signature", "sig.bin", "msg.txt"])
            #expect(String(decoding: verified, as: UTF8.self).contains("Verified OK"))
            // The same check must be able to fail: openssl rejects our signature over another message.
            try cli.write("other.txt", message + [0x21])
            let rejected = try await cli.runAllowingFailure(["dgst", "-sha256", "-verify", "pub.pem", "-signature", "sig.bin", "other.txt"])
            #expect(!rejected.succeeded)
            #expect(rejected.stdoutText.contains("Verification failure"))
        }
    }

    @Test("openssl dgst -sha256 -sign signature verifies with ours; tampering is rejected", arguments: PrivateKeyFormat.allCases, RSAFixtures.sizes)
    func openSSLSHA256SignatureVerifiesWithOurs(format: PrivateKeyFormat, bits: Int) async throws {
        let material = try await RSAFixtures.material(bits: bits)
        let key = try RSAPrivateKey(text: format.text(of: material))
        let message = Self.message("openssl-\(format)-\(bits)")
        let signature = try await OpenSSLCLI.withScratchDirectory { cli in
            try cli.write("key.pem", material.pkcs1PEM)
            try cli.write("msg.txt", message)
            return try await cli.run(["dgst", "-sha256", "-sign", "key.pem", "msg.txt"])
        }
        #expect(signature.count == bits / 8)
        #expect(try key.publicKey.verify(signature, for: message, digest: .sha256))
        #expect(try RSAPublicKey(text: material.publicPEM).verify(signature, for: message, digest: .sha256))
        // PKCS#1 v1.5 is deterministic: our signature is byte for byte openssl's.
        #expect(try key.sign(message, digest: .sha256) == signature)

        var tamperedMessage = message
        tamperedMessage[tamperedMessage.count / 2] ^= 0x01
        #expect(try !key.publicKey.verify(signature, for: tamperedMessage, digest: .sha256))
        for index in [0, signature.count / 2, signature.count - 1] {
            var tamperedSignature = signature
            tamperedSignature[index] ^= 0x80
            #expect(try !key.publicKey.verify(tamperedSignature, for: message, digest: .sha256), "flipped byte \(index)")
        }
        #expect(try !key.publicKey.verify(signature, for: message, digest: .md5), "a SHA-256 signature is not an MD5 one")
    }

    @Test("MD5withRSA interoperates with openssl dgst -md5 in both directions", arguments: RSAFixtures.sizes)
    func md5WithRSA(bits: Int) async throws {
        let material = try await RSAFixtures.material(bits: bits)
        let key = try RSAPrivateKey(text: material.pkcs8PEM)
        // tokenValidate keyType 1 signs phone + appKey + timestamp.
        let message = Array("13800138000ABCDEF012345678920180104090953788".utf8)
        let ours = try key.sign(message, digest: .md5)
        try await OpenSSLCLI.withScratchDirectory { cli in
            try cli.write("key.pem", material.pkcs8PEM)
            try cli.write("pub.pem", material.publicPEM)
            try cli.write("msg.txt", message)
            try cli.write("ours.bin", ours)
            let theirs = try await cli.run(["dgst", "-md5", "-sign", "key.pem", "msg.txt"])
            #expect(theirs == ours)
            #expect(try key.publicKey.verify(theirs, for: message, digest: .md5))
            #expect(try !key.publicKey.verify(theirs, for: message, digest: .sha256), "an MD5 signature is not a SHA-256 one")
            #expect(try !key.publicKey.verify(theirs, for: message.dropLast(), digest: .md5))
            let verified = try await cli.run(["dgst", "-md5", "-verify", "pub.pem", "-signature", "ours.bin", "msg.txt"])
            #expect(String(decoding: verified, as: UTF8.self).contains("Verified OK"))
            let wrongDigest = try await cli.runAllowingFailure(["dgst", "-sha256", "-verify", "pub.pem", "-signature", "ours.bin", "msg.txt"])
            #expect(!wrongDigest.succeeded)
        }
    }

    @Test("openssl pkeyutl -encrypt (PKCS#1 v1.5) ciphertext decrypts with ours", arguments: PrivateKeyFormat.allCases, RSAFixtures.sizes)
    func openSSLCiphertextDecryptsWithOurs(format: PrivateKeyFormat, bits: Int) async throws {
        let material = try await RSAFixtures.material(bits: bits)
        let key = try RSAPrivateKey(text: format.text(of: material))
        let phone = Array("13800138000".utf8)
        let longest = try SecureRandom.bytes(count: bits / 8 - 11)
        for plaintext in [phone, longest] {
            let ciphertext = try await OpenSSLCLI.withScratchDirectory { cli in
                try cli.write("pub.pem", material.publicPEM)
                try cli.write("plain.bin", plaintext)
                return try await cli.run([
                    "pkeyutl", "-encrypt", "-pubin", "-inkey", "pub.pem", "-pkeyopt", "rsa_padding_mode:pkcs1", "-in", "plain.bin",
                ])
            }
            #expect(ciphertext.count == bits / 8)
            #expect(try key.decrypt(ciphertext) == plaintext)
        }
    }

    @Test("our ciphertext decrypts with openssl pkeyutl -decrypt (PKCS#1 v1.5)", arguments: PrivateKeyFormat.allCases, RSAFixtures.sizes)
    func ourCiphertextDecryptsWithOpenSSL(format: PrivateKeyFormat, bits: Int) async throws {
        let material = try await RSAFixtures.material(bits: bits)
        let key = try RSAPrivateKey(text: format.text(of: material))
        let phone = Array("13912345678".utf8)
        let first = try key.publicKey.encrypt(phone)
        let second = try key.publicKey.encrypt(phone)
        #expect(first.count == bits / 8)
        #expect(first != second, "PKCS#1 v1.5 encryption is randomised")
        let longest = try SecureRandom.bytes(count: key.publicKey.maxPlaintextLength)
        let empty = [UInt8]()
        try await OpenSSLCLI.withScratchDirectory { cli in
            try cli.write("key.pem", material.pkcs8PEM)
            for (name, plaintext, ciphertext) in [
                ("first", phone, first), ("second", phone, second),
                ("longest", longest, try key.publicKey.encrypt(longest)), ("empty", empty, try key.publicKey.encrypt(empty)),
            ] {
                try cli.write("\(name).bin", ciphertext)
                let decrypted = try await cli.run([
                    "pkeyutl", "-decrypt", "-inkey", "key.pem", "-pkeyopt", "rsa_padding_mode:pkcs1", "-in", "\(name).bin",
                ])
                #expect(decrypted == plaintext, "\(name)")
            }
        }
    }

    @Test(
        "public keys loaded from openssl output verify openssl signatures and encrypt for openssl",
        arguments: PublicKeyFormat.allCases, RSAFixtures.sizes
    )
    func publicKeyFormats(format: PublicKeyFormat, bits: Int) async throws {
        let material = try await RSAFixtures.material(bits: bits)
        let publicKey = try RSAPublicKey(text: format.text(of: material))
        let message = Self.message("public-\(format)-\(bits)")
        let plaintext = Array("13800138000".utf8)
        let ciphertext = try publicKey.encrypt(plaintext)
        try await OpenSSLCLI.withScratchDirectory { cli in
            try cli.write("key.pem", material.pkcs1PEM)
            try cli.write("msg.txt", message)
            try cli.write("cipher.bin", ciphertext)
            let sha256 = try await cli.run(["dgst", "-sha256", "-sign", "key.pem", "msg.txt"])
            let md5 = try await cli.run(["dgst", "-md5", "-sign", "key.pem", "msg.txt"])
            #expect(try publicKey.verify(sha256, for: message, digest: .sha256))
            #expect(try publicKey.verify(md5, for: message, digest: .md5))
            #expect(try !publicKey.verify(sha256, for: message + [0], digest: .sha256))
            let decrypted = try await cli.run([
                "pkeyutl", "-decrypt", "-inkey", "key.pem", "-pkeyopt", "rsa_padding_mode:pkcs1", "-in", "cipher.bin",
            ])
            #expect(decrypted == plaintext)
        }
    }
}
