import Foundation
import OpenSSLCrypto
import Testing
import PassgateTestSupport

/// Inputs an operator can get wrong, each refused with an `OpenSSLError` that names the problem.
@Suite("RSA rejections")
struct RSAKeyRejectionTests {
    @Test("empty or blank key text", arguments: ["", " ", "\n", " \r\n\t\n "])
    func emptyText(text: String) {
        expectOpenSSLError(.keyLoad, mentioning: ["private key", "empty"]) { try RSAPrivateKey(text: text) }
        expectOpenSSLError(.keyLoad, mentioning: ["public key", "empty"]) { try RSAPublicKey(text: text) }
    }

    @Test("text that is neither PEM nor base64", arguments: ["not a key", "MIIE%%%", "-----BEGIN", "{\"key\": 1}", "QUJD$RA=="])
    func garbageText(text: String) {
        expectOpenSSLError(.keyLoad, mentioning: ["PEM", "base64"]) { try RSAPrivateKey(text: text) }
        expectOpenSSLError(.keyLoad, mentioning: ["PEM", "base64"]) { try RSAPublicKey(text: text) }
    }

    @Test("valid base64 that is not key DER")
    func base64Garbage() throws {
        let text = Data("hello, this is not DER at all".utf8).base64EncodedString()
        expectOpenSSLError(.keyLoad, mentioning: ["not a PKCS#1 or PKCS#8 private key"]) { try RSAPrivateKey(text: text) }
        expectOpenSSLError(.keyLoad, mentioning: ["neither SubjectPublicKeyInfo nor PKCS#1"]) { try RSAPublicKey(text: text) }
        expectOpenSSLError(.keyLoad) { try RSAPrivateKey(der: []) }
        expectOpenSSLError(.keyLoad) { try RSAPublicKey(der: []) }
    }

    @Test("PEM cut off before its END line", arguments: PrivateKeyFormat.allCases.filter { $0 == .pkcs1PEM || $0 == .pkcs8PEM })
    func truncatedPEM(format: PrivateKeyFormat) async throws {
        let pem = format.text(of: try await RSAFixtures.material(bits: 1024))
        let truncated = String(pem.prefix(pem.count / 2))
        expectOpenSSLError(.keyLoad, mentioning: ["truncated"]) { try RSAPrivateKey(text: truncated) }
    }

    @Test("PEM with body lines missing but the END line kept")
    func truncatedPEMBody() async throws {
        let lines = try await RSAFixtures.material(bits: 1024).pkcs8PEM.split(separator: "\n")
        // Drop four 64-character lines (whole base64 quanta, so the base64 itself stays valid).
        let damaged = (lines.prefix(3) + lines.dropFirst(7)).joined(separator: "\n")
        expectOpenSSLError(.keyLoad, mentioning: ["not a PKCS#1 or PKCS#8 private key"]) { try RSAPrivateKey(text: damaged) }
        let publicLines = try await RSAFixtures.material(bits: 2048).publicPEM.split(separator: "\n")
        let damagedPublic = (publicLines.prefix(2) + publicLines.dropFirst(3)).joined(separator: "\n")
        expectOpenSSLError(.keyLoad) { try RSAPublicKey(text: damagedPublic) }
    }

    @Test("PEM whose body is not base64")
    func pemBodyNotBase64() {
        let pem = "-----BEGIN PRIVATE KEY-----\nthis is not base64!\n-----END PRIVATE KEY-----\n"
        expectOpenSSLError(.keyLoad, mentioning: ["not valid base64"]) { try RSAPrivateKey(text: pem) }
    }

    @Test("passphrase-encrypted keys (PKCS#8 -v2 aes-256-cbc, and traditional Proc-Type PEM)")
    func encryptedKeys() async throws {
        let material = try await RSAFixtures.material(bits: 1024)
        let (encryptedPKCS8, encryptedPKCS8DER, traditional) = try await OpenSSLCLI.withScratchDirectory { cli in
            try cli.write("key.pem", material.pkcs8PEM)
            let pem = try await cli.run(["pkcs8", "-topk8", "-v2", "aes-256-cbc", "-passout", "pass:x", "-in", "key.pem"])
            let der = try await cli.run(["pkcs8", "-topk8", "-v2", "aes-256-cbc", "-passout", "pass:x", "-in", "key.pem", "-outform", "DER"])
            let traditional = try await cli.run(["rsa", "-in", "key.pem", "-traditional", "-aes256", "-passout", "pass:x"])
            return (String(decoding: pem, as: UTF8.self), der, String(decoding: traditional, as: UTF8.self))
        }
        #expect(encryptedPKCS8.hasPrefix("-----BEGIN ENCRYPTED PRIVATE KEY-----"))
        #expect(traditional.contains("Proc-Type: 4,ENCRYPTED"))
        expectOpenSSLError(.keyLoad, mentioning: ["passphrase-encrypted"]) { try RSAPrivateKey(text: encryptedPKCS8) }
        expectOpenSSLError(.keyLoad, mentioning: ["passphrase-encrypted"]) { try RSAPrivateKey(text: traditional) }
        // Bare base64 of EncryptedPrivateKeyInfo DER carries no label: refused, with a generic reason.
        let bare = Data(encryptedPKCS8DER).base64EncodedString()
        expectOpenSSLError(.keyLoad, mentioning: ["private key"]) { try RSAPrivateKey(text: bare) }
    }

    @Test("an EC P-256 key is refused as not RSA (private and public, PEM and base64)")
    func ecKey() async throws {
        let (privatePEM, publicPEM, publicDER) = try await OpenSSLCLI.withScratchDirectory { cli in
            try await cli.run(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", "ec.pem"])
            let publicPEM = try await cli.run(["pkey", "-in", "ec.pem", "-pubout"])
            let publicDER = try await cli.run(["pkey", "-in", "ec.pem", "-pubout", "-outform", "DER"])
            return (try cli.readText("ec.pem"), String(decoding: publicPEM, as: UTF8.self), publicDER)
        }
        #expect(privatePEM.hasPrefix("-----BEGIN PRIVATE KEY-----"))
        expectOpenSSLError(.keyLoad, mentioning: ["EC", "RSA key is required"]) { try RSAPrivateKey(text: privatePEM) }
        expectOpenSSLError(.keyLoad, mentioning: ["EC", "RSA key is required"]) { try RSAPublicKey(text: publicPEM) }
        expectOpenSSLError(.keyLoad, mentioning: ["EC", "RSA key is required"]) {
            try RSAPublicKey(text: Data(publicDER).base64EncodedString())
        }
    }

    @Test("a 512-bit RSA key is refused with its size named", arguments: [512, 768])
    func tooSmallKey(bits: Int) async throws {
        let (privatePEM, publicPEM) = try await OpenSSLCLI.withScratchDirectory { cli in
            try await cli.run(["genrsa", "-traditional", "-out", "small.pem", "\(bits)"])
            let publicPEM = try await cli.run(["pkey", "-in", "small.pem", "-pubout"])
            return (try cli.readText("small.pem"), String(decoding: publicPEM, as: UTF8.self))
        }
        expectOpenSSLError(.keyLoad, mentioning: ["\(bits) bits", "1024"]) { try RSAPrivateKey(text: privatePEM) }
        expectOpenSSLError(.keyLoad, mentioning: ["\(bits) bits", "1024"]) { try RSAPublicKey(text: publicPEM) }
        expectOpenSSLError(.keyGenerate, mentioning: ["\(bits)"]) { try RSAPrivateKey.generate(bits: bits) }
    }

    @Test("generate(bits:) refuses sizes outside 1024...4096", arguments: [0, 1023, 4097, 8192])
    func generateOutOfRange(bits: Int) {
        expectOpenSSLError(.keyGenerate, mentioning: ["\(bits) bits", "1024", "4096"]) { try RSAPrivateKey.generate(bits: bits) }
    }

    @Test("public material where the private key is needed", arguments: PublicKeyFormat.allCases)
    func publicWherePrivateNeeded(format: PublicKeyFormat) async throws {
        let text = format.text(of: try await RSAFixtures.material(bits: 2048))
        expectOpenSSLError(.keyLoad, mentioning: ["public", "private key is needed"]) { try RSAPrivateKey(text: text) }
    }

    @Test("a certificate where the private key is needed")
    func certificateWherePrivateNeeded() async throws {
        let certificate = try await OpenSSLCLI.withScratchDirectory { cli in
            try cli.write("key.pem", try await RSAFixtures.material(bits: 1024).pkcs8PEM)
            return try await cli.run(["req", "-new", "-x509", "-key", "key.pem", "-subj", "/CN=passgate-test", "-days", "1"])
        }
        let pem = String(decoding: certificate, as: UTF8.self)
        #expect(pem.hasPrefix("-----BEGIN CERTIFICATE-----"))
        expectOpenSSLError(.keyLoad, mentioning: ["CERTIFICATE", "public material"]) { try RSAPrivateKey(text: pem) }
        expectOpenSSLError(.keyLoad, mentioning: ["CERTIFICATE", "not a public key"]) { try RSAPublicKey(text: pem) }
    }

    @Test("private key PEM where a public key is expected")
    func privateWherePublicExpected() async throws {
        let material = try await RSAFixtures.material(bits: 1024)
        expectOpenSSLError(.keyLoad, mentioning: ["PRIVATE KEY", "not a public key"]) { try RSAPublicKey(text: material.pkcs8PEM) }
        expectOpenSSLError(.keyLoad, mentioning: ["RSA PRIVATE KEY", "not a public key"]) { try RSAPublicKey(text: material.pkcs1PEM) }
    }

    @Test("decrypting a ciphertext of the wrong length names the expected length", arguments: [0, 1, 128, 255, 257, 512])
    func wrongCiphertextLength(length: Int) async throws {
        let key = try await RSAFixtures.privateKey(bits: 2048)
        let ciphertext = try SecureRandom.bytes(count: length)
        expectOpenSSLError(.decrypt, mentioning: ["\(length) bytes", "256"]) { try key.decrypt(ciphertext) }
    }

    @Test("a ciphertext numerically larger than the modulus is refused")
    func ciphertextAboveModulus() async throws {
        let key = try await RSAFixtures.privateKey(bits: 2048)
        let error = expectOpenSSLError(.decrypt) { try key.decrypt([UInt8](repeating: 0xFF, count: 256)) }
        #expect(error?.openSSLErrors.isEmpty == false, "OpenSSL's own reasons are kept for the logs")
    }

    /// OpenSSL before 3.2 reports a padding error for a ciphertext made for another key; from
    /// 3.2 (implicit rejection) it returns pseudo-random bytes instead. Observed with the
    /// OpenSSL 3.0.19 on this machine: every attempt throws `.decrypt`.
    @Test("decrypting with the wrong same-size key throws, or yields bytes that differ from the plaintext")
    func wrongKeyDecrypt() async throws {
        let right = try await RSAFixtures.privateKey(bits: 2048)
        let wrong = TestRSAKeys.primary
        var threw = 0
        let attempts = 4
        for attempt in 0..<attempts {
            let plaintext = Array("1380013800\(attempt)".utf8)
            let ciphertext = try right.publicKey.encrypt(plaintext)
            #expect(try right.decrypt(ciphertext) == plaintext)
            do {
                let garbage = try wrong.decrypt(ciphertext)
                #expect(garbage != plaintext)
            } catch let error as OpenSSLError {
                #expect(error.operation == .decrypt)
                #expect(error.reason.contains("another key"))
                threw += 1
            }
        }
        let version = try await OpenSSLCLI.withScratchDirectory { cli in String(decoding: try await cli.run(["version"]), as: UTF8.self) }
        if version.hasPrefix("OpenSSL 3.0.") || version.hasPrefix("OpenSSL 3.1.") {
            // A random PKCS#1 block passes the padding check with probability about 2^-16: allow one.
            #expect(threw >= attempts - 1, "\(version): explicit rejection expected, \(threw)/\(attempts) threw")
        }
    }

    @Test("encrypting more than maxPlaintextLength is refused with the limit named", arguments: RSAFixtures.sizes)
    func plaintextTooLong(bits: Int) async throws {
        let publicKey = try await RSAFixtures.privateKey(bits: bits).publicKey
        let limit = bits / 8 - 11
        #expect(publicKey.maxPlaintextLength == limit)
        #expect(try publicKey.encrypt([UInt8](repeating: 0x31, count: limit)).count == bits / 8)
        expectOpenSSLError(.encrypt, mentioning: ["\(limit + 1) bytes", "exceeds \(limit)", "\(bits)-bit"]) {
            try publicKey.encrypt([UInt8](repeating: 0x31, count: limit + 1))
        }
        expectOpenSSLError(.encrypt) { try publicKey.encrypt([UInt8](repeating: 0x31, count: 4096)) }
    }

    @Test("malformed signatures verify as false instead of throwing")
    func malformedSignatures() async throws {
        let key = try await RSAFixtures.privateKey(bits: 2048)
        let message = Array("300011111111token".utf8)
        let good = try key.sign(message)
        #expect(try key.publicKey.verify(good, for: message))
        let wrongKey = try await RSAFixtures.privateKey(bits: 1024)
        for (name, signature) in [
            ("empty", []), ("one byte", [0x01]), ("truncated", Array(good.dropLast())), ("extended", good + [0]),
            ("all 0xFF", [UInt8](repeating: 0xFF, count: 256)), ("zeros", [UInt8](repeating: 0, count: 256)),
            ("other key's signature", try wrongKey.sign(message)),
        ] as [(String, [UInt8])] {
            #expect(try !key.publicKey.verify(signature, for: message), "\(name)")
        }
    }
}
