import Foundation
import OpenSSLCrypto
import Testing
import PassgateTestSupport

/// Loading keys made by the `openssl` CLI in every accepted form; each loaded key must be the
/// same key (same public DER as `openssl pkey -pubout -outform DER`).
@Suite("RSA key loading")
struct RSAKeyLoadingTests {
    @Test("the fixtures are in the formats the matrix claims", arguments: RSAFixtures.sizes)
    func fixturesAreWhatTheyClaim(bits: Int) async throws {
        let material = try await RSAFixtures.material(bits: bits)
        #expect(material.pkcs1PEM.hasPrefix("-----BEGIN RSA PRIVATE KEY-----"))
        #expect(material.pkcs8PEM.hasPrefix("-----BEGIN PRIVATE KEY-----"))
        #expect(material.publicPEM.hasPrefix("-----BEGIN PUBLIC KEY-----"))
        #expect(material.publicPKCS1PEM.hasPrefix("-----BEGIN RSA PUBLIC KEY-----"))
        #expect(!material.pkcs1DER.containsSubsequence(rsaEncryptionOID), "PKCS#1 has no algorithm identifier")
        #expect(material.pkcs8DER.containsSubsequence(rsaEncryptionOID))
        #expect(material.publicDER.containsSubsequence(rsaEncryptionOID))
        #expect(!material.publicPKCS1DER.containsSubsequence(rsaEncryptionOID))
        #expect(pemBody(material.pkcs1PEM) == material.pkcs1DER)
        #expect(pemBody(material.pkcs8PEM) == material.pkcs8DER)
        #expect(pemBody(material.publicPEM) == material.publicDER)
        #expect(pemBody(material.publicPKCS1PEM) == material.publicPKCS1DER)
        let wrapped = PrivateKeyFormat.pkcs8Base64WrappedCRLF.text(of: material)
        #expect(wrapped.utf8.contains(13) && wrapped.contains("\r\n"))
        let lines = wrapped.components(separatedBy: "\r\n")
        #expect(lines.last == "", "ends with CRLF")
        #expect(lines.dropLast(2).allSatisfy { $0.count == 64 })
        #expect((1...64).contains(lines[lines.count - 2].count))
    }

    @Test("loads openssl's private key", arguments: PrivateKeyFormat.allCases, RSAFixtures.sizes)
    func loadsPrivateKey(format: PrivateKeyFormat, bits: Int) async throws {
        let material = try await RSAFixtures.material(bits: bits)
        let key = try RSAPrivateKey(text: format.text(of: material))
        #expect(key.bits == bits)
        #expect(key.publicKey.bits == bits)
        #expect(try key.publicKey.der() == material.publicDER)
        #expect(try key.publicKey.pem() == material.publicPEM)
        // RSASSA-PKCS1-v1_5 is deterministic: every form of the same key signs identically.
        let message = Array("300011111111STsid0000001551151128045".utf8)
        #expect(try await key.sign(message) == RSAFixtures.privateKey(bits: bits).sign(message))
    }

    @Test("loads private key DER directly (PKCS#1 and PKCS#8)", arguments: RSAFixtures.sizes)
    func loadsPrivateDER(bits: Int) async throws {
        let material = try await RSAFixtures.material(bits: bits)
        #expect(try RSAPrivateKey(der: material.pkcs1DER).publicKey.der() == material.publicDER)
        #expect(try RSAPrivateKey(der: material.pkcs8DER).publicKey.der() == material.publicDER)
    }

    @Test("tolerates CRLF, indentation, blank lines and stray spaces around and inside key text")
    func toleratesWhitespace() async throws {
        let material = try await RSAFixtures.material(bits: 1024)
        let crlfPEM = "\r\n\r\n" + material.pkcs1PEM.replacingOccurrences(of: "\n", with: "\r\n") + "\r\n\r\n"
        let indentedPEM = material.pkcs8PEM.split(separator: "\n").map { "   \($0)\t" }.joined(separator: "\n")
        let base64 = Data(material.pkcs8DER).base64EncodedString()
        let spacedBase64 = "  " + wrapped(base64, width: 76, newline: " \n ") + "\n\n"
        for text in [crlfPEM, indentedPEM, spacedBase64] {
            let key = try RSAPrivateKey(text: text)
            #expect(try key.publicKey.der() == material.publicDER)
        }
        let crlfPublic = material.publicPEM.replacingOccurrences(of: "\n", with: "\r\n")
        #expect(try RSAPublicKey(text: crlfPublic).der() == material.publicDER)
    }

    @Test("loads openssl's public key", arguments: PublicKeyFormat.allCases, RSAFixtures.sizes)
    func loadsPublicKey(format: PublicKeyFormat, bits: Int) async throws {
        let material = try await RSAFixtures.material(bits: bits)
        let key = try RSAPublicKey(text: format.text(of: material))
        #expect(key.bits == bits)
        #expect(key.maxPlaintextLength == bits / 8 - 11)
        // Whatever it was loaded from, we export SubjectPublicKeyInfo.
        #expect(try key.der() == material.publicDER)
        #expect(try key.base64DER() == Data(material.publicDER).base64EncodedString())
        #expect(try key.pem() == material.publicPEM)
    }

    @Test("loads public key DER directly (SubjectPublicKeyInfo and PKCS#1)", arguments: RSAFixtures.sizes)
    func loadsPublicDER(bits: Int) async throws {
        let material = try await RSAFixtures.material(bits: bits)
        #expect(try RSAPublicKey(der: material.publicDER).der() == material.publicDER)
        #expect(try RSAPublicKey(der: material.publicPKCS1DER).der() == material.publicDER)
    }
}

/// The DER inside a single-block PEM text.
private func pemBody(_ pem: String) -> [UInt8]? {
    let body = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
    return Data(base64Encoded: body).map { [UInt8]($0) }
}

@Suite("RSA key loading: PEM preambles")
struct RSAKeyPreambleTests {
    @Test("a PEM preceded by pkcs12 'Bag Attributes' lines loads")
    func bagAttributesPreamble() throws {
        let key = TestRSAKeys.primary1024
        let text = "Bag Attributes\n    localKeyID: 01 02 03\nsubject=/CN=test\n" + (try key.pkcs8PEM())
        let loaded = try RSAPrivateKey(text: text)
        #expect(try loaded.publicKey.der() == key.publicKey.der())
    }
}
