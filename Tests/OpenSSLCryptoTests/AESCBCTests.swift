import Foundation
import OpenSSLCrypto
import Testing

/// AES-128-CBC with PKCS#7 padding: the NIST vector, the `openssl enc` command line both ways, and
/// the refusals a provider's reply parser relies on.
@Suite("AES-128-CBC")
struct AESCBCTests {
    static let key = Hex.decode("2b7e151628aed2a6abf7158809cf4f3c")!
    static let iv = Hex.decode("000102030405060708090a0b0c0d0e0f")!

    @Test("matches NIST SP 800-38A F.2.1 block for block, plus one whole padding block")
    func nistVector() throws {
        let plaintext = Hex.decode(
            "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e5130c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710")!
        let expected = "7649abac8119b246cee98e9b12e9197d5086cb9b507219ee95db113a917678b273bed6b8e3c1743b7116e69e222295163ff1caa1681fac09120eca307586e1a7"
        let ciphertext = try AESCBC.encrypt(plaintext, key: Self.key, iv: Self.iv)
        #expect(ciphertext.count == plaintext.count + 16)
        #expect(Hex.lowercase(Array(ciphertext.prefix(plaintext.count))) == expected)
        #expect(try AESCBC.decrypt(ciphertext, key: Self.key, iv: Self.iv) == plaintext)
    }

    @Test("openssl enc decrypts ours and we decrypt openssl's, for every length around a block", arguments: [0, 1, 11, 15, 16, 17, 32])
    func crossCheckedWithOpenSSL(length: Int) async throws {
        let plaintext = Array("13900001234-abcdefghijklmnopqrstuvwxyz".utf8.prefix(length))
        try await OpenSSLCLI.withScratchDirectory { cli in
            let arguments = ["-aes-128-cbc", "-K", Hex.lowercase(Self.key), "-iv", Hex.lowercase(Self.iv)]
            try cli.write("ours.bin", try AESCBC.encrypt(plaintext, key: Self.key, iv: Self.iv))
            #expect(try await cli.run(["enc", "-d"] + arguments + ["-in", "ours.bin"]) == plaintext)
            try cli.write("plain.txt", plaintext)
            let theirs = try await cli.run(["enc", "-e"] + arguments + ["-in", "plain.txt"])
            #expect(try AESCBC.decrypt(theirs, key: Self.key, iv: Self.iv) == plaintext)
        }
    }

    @Test("refuses wrong key and IV lengths and ciphertexts that are not whole blocks")
    func refusals() {
        expectOpenSSLError(.encrypt, mentioning: ["16-byte key"]) { try AESCBC.encrypt([1], key: Array(Self.key.prefix(15)), iv: Self.iv) }
        expectOpenSSLError(.decrypt, mentioning: ["16-byte key"]) { try AESCBC.decrypt([UInt8](repeating: 0, count: 16), key: Self.key, iv: [0]) }
        expectOpenSSLError(.decrypt, mentioning: ["not a positive multiple of 16"]) { try AESCBC.decrypt([], key: Self.key, iv: Self.iv) }
        expectOpenSSLError(.decrypt, mentioning: ["not a positive multiple of 16"]) { try AESCBC.decrypt([UInt8](repeating: 0, count: 17), key: Self.key, iv: Self.iv) }
    }

    @Test("another key fails the padding check or yields other bytes, never the plaintext")
    func wrongKey() throws {
        let plaintext = Array("13900001234".utf8)
        let ciphertext = try AESCBC.encrypt(plaintext, key: Self.key, iv: Self.iv)
        var refused = 0
        for byte in UInt8(0)..<64 {
            var other = Self.key
            other[0] ^= byte + 1
            if let decrypted = try? AESCBC.decrypt(ciphertext, key: other, iv: Self.iv) {
                #expect(decrypted != plaintext)
            } else {
                refused += 1
            }
        }
        #expect(refused > 32, "most wrong keys break the padding")
    }
}
