import PassgateCore
import Foundation
import OpenSSLCrypto
import Testing

@Suite("msisdn decryption and validation")
struct MSISDNTests {
    @Test("mainland numbers are 1[3-9] plus 9 digits", arguments: [("13800138000", true), ("19912345678", true), ("12800138000", false), ("1380013800", false), ("138001380000", false), ("+8613800138000", false), ("1380013800a", false), ("", false), ("10800138000", false), ("23800138000", false), ("13800138000 ", false), ("１３８００１３８０００", false), ("1380013800٠", false)])
    func mainland(text: String, valid: Bool) {
        #expect(MSISDN.isMainland(text) == valid)
        #expect(MSISDN.isMainland(text[...]) == valid)
        // Inside a longer, heap-allocated string, as a Substring of it.
        let padded = "number: " + text + " (padding past the small-string size)"
        let start = padded.index(padded.startIndex, offsetBy: 8), end = padded.index(start, offsetBy: text.count)
        #expect(MSISDN.isMainland(padded[start..<end]) == valid)
    }

    @Test("masking keeps the first 3 and last 4 digits only")
    func masking() {
        #expect(MSISDN.mask("13800138000") == "138****8000")
        #expect(MSISDN.mask("garbage-value") == "*************")
        #expect(MSISDN.mask("") == "" && MSISDN.mask("1380013800") == "**********" && MSISDN.mask("中文号码") == "****")
        #expect(MSISDN.mask(String(repeating: "9", count: 40)) == String(repeating: "*", count: 16))
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let number = "1" + String(Int.random(in: 3...9, using: &generator)) + (0..<9).map { _ in String(Int.random(in: 0...9, using: &generator)) }.joined()
            #expect(MSISDN.mask(number) == String(number.prefix(3)) + "****" + String(number.suffix(4)), "\(number)")
        }
    }

    static func ciphertext(_ plaintext: String, key: RSAPrivateKey = Fixtures.appKey) throws -> [UInt8] {
        try key.publicKey.encrypt(Array(plaintext.utf8))
    }

    @Test("ciphertext in upper hex, lower hex, base64 and with whitespace decrypts")
    func encodings() throws {
        let bytes = try Self.ciphertext("13800138000")
        let forms = [
            Hex.uppercase(bytes), Hex.lowercase(bytes), Data(bytes).base64EncodedString(),
            Data(bytes).base64EncodedString(options: [.lineLength64Characters, .endLineWithCarriageReturn]),
            " " + Hex.uppercase(bytes) + "\n\0",
            // Non-ASCII whitespace (an ideographic space, a no-break space) goes the Unicode way.
            "\u{3000}" + Hex.uppercase(bytes) + "\u{00A0}\t\u{0B}",
        ]
        for form in forms {
            #expect(try MSISDN.decrypt(form, with: Fixtures.appKey) == "13800138000")
        }
    }

    @Test("a plaintext padded with NULs or spaces is still accepted")
    func paddedPlaintext() throws {
        #expect(try MSISDN.decrypt(Hex.uppercase(try Self.ciphertext("13800138000\0\0")), with: Fixtures.appKey) == "13800138000")
    }

    @Test(
        "garbage, wrong-key and non-number ciphertexts fail as msisdn_decrypt_failed",
        arguments: ["zz-not-cipher", "ABCD", "wrong-key", "not-a-number", "plain-number"]
    )
    func failures(kind: String) throws {
        let field: String = switch kind {
        case "wrong-key": Hex.uppercase(try Self.ciphertext("13800138000", key: Fixtures.otherKey))
        case "not-a-number": Hex.uppercase(try Self.ciphertext("hello world"))
        case "plain-number": "13800138000"
        default: kind
        }
        do {
            let number = try MSISDN.decrypt(field, with: Fixtures.appKey)
            Issue.record("decrypted to \(number)")
        } catch {
            #expect(error.code == .msisdnDecryptFailed)
            #expect(!error.retryable && error.action == .fixConfig)
            guard case .decryption = error.reason else { Issue.record("reason \(error.reason)"); return }
        }
    }
}
