import Foundation
import OpenSSLCrypto

/// Mainland China mobile numbers: validation, masking for logs, and decryption of the carrier's
/// RSA-encrypted `msisdn`.
public enum MSISDN {
    /// Whether `text` is an 11-digit mainland mobile number (`1[3-9]` + 9 digits).
    /// Over the text's contiguous bytes: a request checks its number several times, and stepping
    /// through `String.UTF8View` cost ten times as much.
    public static func isMainland(_ text: some StringProtocol) -> Bool {
        text.utf8.withContiguousStorageIfAvailable(isMainland(bytes:)) ?? Array(text.utf8).withUnsafeBufferPointer(isMainland(bytes:))
    }

    private static func isMainland(bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count == 11, bytes[0] == UInt8(ascii: "1"), bytes[1] >= UInt8(ascii: "3") else { return false }
        return bytes.allSatisfy { (48...57).contains($0) }
    }

    /// `13800138000` -> `138****8000`; anything else is fully masked, keeping only its length.
    /// Written as bytes, without `prefix`, `suffix` and concatenations: every request masks its number.
    public static func mask(_ text: String) -> String {
        var text = text
        let masked = text.withUTF8 { bytes -> String? in
            guard isMainland(bytes: bytes) else { return nil }
            return String(unsafeUninitializedCapacity: 11) { buffer in
                for index in 0..<11 { buffer[index] = (3..<7).contains(index) ? UInt8(ascii: "*") : bytes[index] }
                return 11
            }
        }
        return masked ?? String(repeating: "*", count: min(text.count, 16))
    }

    /// Decrypts an RSA-mode `msisdn`: hex (either case) or base64 ciphertext, whitespace and NULs
    /// stripped, plaintext validated as a mainland number. A wrong key can produce garbage rather
    /// than an error, so validation is what proves the decryption.
    public static func decrypt(_ field: String, with key: RSAPrivateKey) throws(PassgateError) -> String {
        let text = compacted(field)
        let expected = (key.bits + 7) / 8
        guard let ciphertext = decodeCiphertext(text, length: expected) else {
            if isMainland(text) {
                throw failure("the carrier sent a plain phone number although this app is configured for RSA mode (signMode: rsa): the console may have RSA encryption off")
            }
            throw failure("msisdn (\(text.count) chars) is neither hex nor base64 of a \(expected)-byte RSA ciphertext for this \(key.bits)-bit key")
        }
        let plaintext: [UInt8]
        do {
            plaintext = try key.decrypt(ciphertext)
        } catch {
            throw failure("RSA decryption failed: the console's encryption public key is not this private key's half", underlying: error)
        }
        let number = String(decoding: plaintext.filter { $0 != 0 && $0 != 0x20 && $0 != 0x0A && $0 != 0x0D }, as: UTF8.self)
        guard isMainland(number) else {
            throw failure("decrypted msisdn is not an 11-digit mainland number (\(plaintext.count) bytes): the console's encryption key likely differs from this private key")
        }
        return number
    }

    /// Decrypts a number sent as hex of AES-CBC with PKCS#7 padding (an aggregator's encrypted
    /// number; AES-128 or AES-256 by the key's length, `AESCBC`), plaintext validated as a
    /// mainland number: an unauthenticated cipher under a wrong key can pass the padding check,
    /// so validation is what proves the decryption.
    public static func decryptAESCBC(_ field: String, key: [UInt8], iv: [UInt8]) throws(PassgateError) -> String {
        let text = compacted(field)
        guard let ciphertext = Hex.decode(text), !ciphertext.isEmpty, ciphertext.count % 16 == 0 else {
            if isMainland(text) {
                throw failure("the provider sent a plain phone number where an AES-encrypted one belongs")
            }
            throw failure("the number (\(text.count) chars) is not hex of whole AES blocks")
        }
        let plaintext: [UInt8]
        do {
            plaintext = try AESCBC.decrypt(ciphertext, key: key, iv: iv)
        } catch {
            throw failure("AES decryption failed: the appKey is not the one the provider encrypted with", underlying: error)
        }
        let number = String(decoding: plaintext, as: UTF8.self)
        guard isMainland(number) else {
            throw failure("the decrypted number is not an 11-digit mainland number (\(plaintext.count) bytes): the appKey likely differs")
        }
        return number
    }

    /// `field` without whitespace and NULs. Ciphertext is ASCII, so that case is filtered as bytes
    /// (a Unicode property lookup and a `Character` per hex digit cost more than the rest of the
    /// reply handling); anything else goes through the Unicode definition of whitespace.
    static func compacted(_ field: String) -> String {
        if field.allUTF8({ $0 < 0x80 }) {
            return String(decoding: field.utf8.filter { $0 != 0 && $0 != 0x20 && !(0x09...0x0D).contains($0) }, as: UTF8.self)
        }
        return String(String.UnicodeScalarView(field.unicodeScalars.filter { !$0.properties.isWhitespace && $0 != "\0" }))
    }

    private static func decodeCiphertext(_ text: String, length: Int) -> [UInt8]? {
        if let bytes = Hex.decode(text), bytes.count == length { return bytes }
        if let data = Data(base64Encoded: text), data.count == length { return [UInt8](data) }
        return nil
    }

    private static func failure(_ detail: String, underlying: (any Error & Sendable)? = nil) -> PassgateError {
        PassgateError(
            .msisdnDecryptFailed, .decryption(detail: detail),
            message: PassgateError.Code.msisdnDecryptFailed.defaultMessage + " (\(detail))", underlying: underlying
        )
    }
}
