import Foundation
import OpenSSLCrypto
import Testing

/// Single DES-CBC from OpenSSL 3's legacy provider, loaded into a library context of its own:
/// MobTech's vector, the `openssl enc` command line both ways, the refusals, and a clear failure
/// when the legacy module is not where OpenSSL looks.
@Suite("DES-CBC")
struct DESCBCTests {
    /// MobTech's number encryption: the first 8 bytes of the appSecret, IV ASCII "00000000".
    static let key = Array("mobAppSe".utf8)
    static let iv = Array("00000000".utf8)
    static let plaintext = Array(#"{"isValid":1,"phone":"13800138000","valid":true}"#.utf8)
    static let vector = "4jXA3pENgJ6wqXjrH1KJKU4dI6Qnvt35GCnbjnRrNAB3UQX0ARU1ceW9Lxntzck/iqXhuoN4RN0="

    @Test("encrypts MobTech's computed vector, and decrypts it back")
    func mobTechVector() throws {
        let des = try DESCBC.shared.get()
        let ciphertext = try des.encrypt(Self.plaintext, key: Self.key, iv: Self.iv)
        #expect(Data(ciphertext).base64EncodedString() == Self.vector)
        #expect(try des.decrypt([UInt8](Data(base64Encoded: Self.vector)!), key: Self.key, iv: Self.iv) == Self.plaintext)
    }

    @Test("openssl enc -des-cbc with the legacy provider decrypts ours and we decrypt its, for every length around a block", arguments: [0, 1, 7, 8, 9, 48])
    func crossCheckedWithOpenSSL(length: Int) async throws {
        let des = try DESCBC.shared.get()
        let plaintext = Array(Self.plaintext.prefix(length))
        try await OpenSSLCLI.withScratchDirectory { cli in
            let arguments = ["-des-cbc", "-provider", "legacy", "-provider", "default", "-K", Hex.lowercase(Self.key), "-iv", Hex.lowercase(Self.iv)]
            try cli.write("ours.bin", try des.encrypt(plaintext, key: Self.key, iv: Self.iv))
            #expect(try await cli.run(["enc", "-d"] + arguments + ["-in", "ours.bin"]) == plaintext)
            try cli.write("plain.txt", plaintext)
            let theirs = try await cli.run(["enc", "-e"] + arguments + ["-in", "plain.txt"])
            #expect(try des.decrypt(theirs, key: Self.key, iv: Self.iv) == plaintext)
        }
    }

    @Test("the notes' vector is what openssl enc -des-cbc makes of the plaintext")
    func vectorFromOpenSSL() async throws {
        try await OpenSSLCLI.withScratchDirectory { cli in
            try cli.write("plain.txt", Self.plaintext)
            let arguments = ["-des-cbc", "-provider", "legacy", "-provider", "default", "-K", Hex.lowercase(Self.key), "-iv", Hex.lowercase(Self.iv)]
            let theirs = try await cli.run(["enc", "-e"] + arguments + ["-in", "plain.txt"])
            #expect(Data(theirs).base64EncodedString() == Self.vector)
        }
    }

    @Test("refuses wrong key and IV lengths and ciphertexts that are not whole blocks")
    func refusals() throws {
        let des = try DESCBC.shared.get()
        expectOpenSSLError(.encrypt, mentioning: ["8-byte key"]) { try des.encrypt([1], key: Array(Self.key.prefix(7)), iv: Self.iv) }
        expectOpenSSLError(.decrypt, mentioning: ["8-byte key"]) { try des.decrypt([UInt8](repeating: 0, count: 8), key: Self.key, iv: [0]) }
        expectOpenSSLError(.decrypt, mentioning: ["not a positive multiple of 8"]) { try des.decrypt([], key: Self.key, iv: Self.iv) }
        expectOpenSSLError(.decrypt, mentioning: ["not a positive multiple of 8"]) { try des.decrypt([UInt8](repeating: 0, count: 12), key: Self.key, iv: Self.iv) }
    }

    @Test("another key fails the padding check or yields other bytes, never the plaintext")
    func wrongKey() throws {
        let des = try DESCBC.shared.get()
        let ciphertext = try des.encrypt(Self.plaintext, key: Self.key, iv: Self.iv)
        var refused = 0
        for byte in UInt8(0)..<64 {
            var other = Self.key
            // DES ignores each byte's lowest bit (parity): change the others.
            other[0] ^= (byte + 1) << 1
            if let decrypted = try? des.decrypt(ciphertext, key: other, iv: Self.iv) {
                #expect(decrypted != Self.plaintext)
            } else {
                refused += 1
            }
        }
        #expect(refused > 32, "most wrong keys break the padding")
    }

    @Test("without the legacy module where OpenSSL looks, loading fails naming the module and what to install")
    func missingLegacyModule() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("passgate-no-modules-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        guard case .failure(let error) = DESCBC.load(modulesDirectory: empty.path) else {
            Issue.record("DES-CBC loaded without its module")
            return
        }
        #expect(error.operation == .cipherLoad)
        #expect(error.reason.contains("legacy provider module") && error.reason.contains(empty.path) && error.reason.contains("libssl3"))
    }

    @Test("loading DES-CBC leaves the process's default library context without single DES")
    func defaultContextUntouched() throws {
        _ = try DESCBC.shared.get()
        #expect(!DESCBC.defaultContextHasDES)
    }
}
