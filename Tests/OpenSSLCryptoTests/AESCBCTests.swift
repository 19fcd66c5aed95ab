import Foundation
import OpenSSLCrypto
import Testing

/// AES-CBC with PKCS#7 padding, AES-128 and AES-256 by the key's length: the NIST vectors, the
/// `openssl enc` command line both ways, and the refusals a provider's reply parser relies on.
@Suite("AES-CBC")
struct AESCBCTests {
    static let key = Hex.decode("2b7e151628aed2a6abf7158809cf4f3c")!
    static let key256 = Hex.decode("603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4")!
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

    @Test("matches NIST SP 800-38A F.2.5 (AES-256) under a 32-byte key")
    func nistVector256() throws {
        let plaintext = Hex.decode(
            "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e5130c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710")!
        let expected = "f58c4c04d6e5f1ba779eabfb5f7bfbd69cfc4e967edb808d679f777bc6702c7d39f23369a9d9bacfa530e26304231461b2eb05e2c39be9fcda6c19078c6a9d1b"
        let ciphertext = try AESCBC.encrypt(plaintext, key: Self.key256, iv: Self.iv)
        #expect(Hex.lowercase(Array(ciphertext.prefix(plaintext.count))) == expected)
        #expect(try AESCBC.decrypt(ciphertext, key: Self.key256, iv: Self.iv) == plaintext)
    }

    @Test("openssl enc -aes-128-cbc decrypts ours and we decrypt openssl's, for every length around a block", arguments: [0, 1, 11, 15, 16, 17, 32])
    func crossCheckedWithOpenSSL(length: Int) async throws {
        try await Self.crossCheck(cipher: "-aes-128-cbc", key: Self.key, length: length)
    }

    @Test("openssl enc -aes-256-cbc decrypts ours and we decrypt openssl's, for every length around a block", arguments: [0, 1, 11, 15, 16, 17, 32])
    func crossCheckedWithOpenSSL256(length: Int) async throws {
        try await Self.crossCheck(cipher: "-aes-256-cbc", key: Self.key256, length: length)
    }

    @Test("a 32-byte key is AES-256, not AES-128 under its first half")
    func keyLengthPicksTheCipher() throws {
        let plaintext = Array("13800138000".utf8)
        let under256 = try AESCBC.encrypt(plaintext, key: Self.key256, iv: Self.iv)
        #expect(under256 != (try AESCBC.encrypt(plaintext, key: Array(Self.key256.prefix(16)), iv: Self.iv)))
        #expect((try? AESCBC.decrypt(under256, key: Array(Self.key256.prefix(16)), iv: Self.iv)) != plaintext)
    }

    private static func crossCheck(cipher: String, key: [UInt8], length: Int) async throws {
        let plaintext = Array("13900001234-abcdefghijklmnopqrstuvwxyz".utf8.prefix(length))
        try await OpenSSLCLI.withScratchDirectory { cli in
            let arguments = [cipher, "-K", Hex.lowercase(key), "-iv", Hex.lowercase(Self.iv)]
            try cli.write("ours.bin", try AESCBC.encrypt(plaintext, key: key, iv: Self.iv))
            #expect(try await cli.run(["enc", "-d"] + arguments + ["-in", "ours.bin"]) == plaintext)
            try cli.write("plain.txt", plaintext)
            let theirs = try await cli.run(["enc", "-e"] + arguments + ["-in", "plain.txt"])
            #expect(try AESCBC.decrypt(theirs, key: key, iv: Self.iv) == plaintext)
        }
    }

    @Test("refuses wrong key and IV lengths and ciphertexts that are not whole blocks")
    func refusals() {
        expectOpenSSLError(.encrypt, mentioning: ["16-byte key"]) { try AESCBC.encrypt([1], key: Array(Self.key.prefix(15)), iv: Self.iv) }
        expectOpenSSLError(.decrypt, mentioning: ["16-byte IV"]) { try AESCBC.decrypt([UInt8](repeating: 0, count: 16), key: Self.key, iv: [0]) }
        expectOpenSSLError(.encrypt, mentioning: ["32-byte key", "got 24"]) { try AESCBC.encrypt([1], key: [UInt8](repeating: 1, count: 24), iv: Self.iv) }
        expectOpenSSLError(.decrypt, mentioning: ["32-byte key", "got 33"]) { try AESCBC.decrypt([UInt8](repeating: 0, count: 16), key: [UInt8](repeating: 1, count: 33), iv: Self.iv) }
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
