import Foundation
import OpenSSLCrypto
import PassgateTestSupport
import Testing

@Suite("AESGCM")
struct AESGCMTests {
    let key: [UInt8]
    let plaintext = Array("+8613800138000 and some more bytes".utf8)

    init() throws {
        key = try SecureRandom.bytes(count: 32)
    }

    @Test("round trip, with and without associated data, including empty plaintext")
    func roundTrip() throws {
        for message in [plaintext, [], [0], Array(repeating: 0xAB, count: 10_000)] {
            let sealed = try AESGCM.seal(message, key: key)
            #expect(sealed.count == message.count + AESGCM.overhead)
            #expect(try AESGCM.open(sealed, key: key) == message)

            let bound = try AESGCM.seal(message, key: key, associatedData: Array("replay-key".utf8))
            #expect(try AESGCM.open(bound, key: key, associatedData: Array("replay-key".utf8)) == message)
        }
    }

    @Test("every seal uses a fresh random nonce")
    func randomNonce() throws {
        let first = try AESGCM.seal(plaintext, key: key)
        let second = try AESGCM.seal(plaintext, key: key)
        #expect(first != second)
        #expect(first.prefix(12) != second.prefix(12))
        #expect(!first.containsSubsequence(plaintext))
    }

    @Test("altering any byte (nonce, ciphertext or tag) fails with .decrypt")
    func tamper() throws {
        let sealed = try AESGCM.seal(plaintext, key: key, associatedData: [1, 2, 3])
        let positions = [0, 11, 12, 12 + plaintext.count / 2, 12 + plaintext.count - 1, sealed.count - 16, sealed.count - 1]
        for position in positions {
            var altered = sealed
            altered[position] ^= 0x01
            expectDecryptFailure { try AESGCM.open(altered, key: key, associatedData: [1, 2, 3]) }
        }
        expectDecryptFailure { try AESGCM.open(Array(sealed.dropLast()), key: key, associatedData: [1, 2, 3]) }
        expectDecryptFailure { try AESGCM.open(sealed + [0], key: key, associatedData: [1, 2, 3]) }
        expectDecryptFailure { try AESGCM.open(Array(sealed.prefix(27)), key: key, associatedData: [1, 2, 3]) }
    }

    @Test("wrong key fails with .decrypt")
    func wrongKey() throws {
        let sealed = try AESGCM.seal(plaintext, key: key)
        var other = key
        other[31] ^= 0x80
        expectDecryptFailure { try AESGCM.open(sealed, key: other) }
    }

    @Test("wrong or missing associated data fails with .decrypt")
    func wrongAssociatedData() throws {
        let sealed = try AESGCM.seal(plaintext, key: key, associatedData: Array("key-a".utf8))
        expectDecryptFailure { try AESGCM.open(sealed, key: key, associatedData: Array("key-b".utf8)) }
        expectDecryptFailure { try AESGCM.open(sealed, key: key) }
        let unbound = try AESGCM.seal(plaintext, key: key)
        expectDecryptFailure { try AESGCM.open(unbound, key: key, associatedData: Array("key-a".utf8)) }
    }

    @Test("keys that are not 32 bytes are refused")
    func keyLength() throws {
        for length in [0, 16, 24, 31, 33] {
            let short = [UInt8](repeating: 7, count: length)
            #expect(throws: OpenSSLError.self) { try AESGCM.seal(plaintext, key: short) }
            let sealed = try AESGCM.seal(plaintext, key: key)
            #expect { try AESGCM.open(sealed, key: short) } throws: { ($0 as? OpenSSLError)?.operation == .decrypt }
        }
        do {
            _ = try AESGCM.seal(plaintext, key: [1, 2, 3])
        } catch let error as OpenSSLError {
            #expect(error.operation == .encrypt)
            #expect(error.reason.contains("32-byte key"))
        }
    }

    @Test("known answer: NIST GCM test vector (AES-256, 96-bit IV)")
    func knownAnswer() throws {
        // gcmEncryptExtIV256.rsp, Count = 0 with PT/AAD: key, iv, pt, aad, ct, tag.
        let key = hex("92e11dcdaa866f5ce790fd24501f92509aacf4cb8b1339d50c9c1240935dd08b")
        let iv = hex("ac93a1a6145299bde902f21a")
        let pt = hex("2d71bcfa914e4ac045b2aa60955fad24")
        let aad = hex("1e0889016f67601c8ebea4943bc23ad6")
        let ct = hex("8995ae2e6df3dbf96fac7b7137bae67f")
        let tag = hex("eca5aa77d51d4a0a14d9c51e1da474ab")
        #expect(try AESGCM.open(iv + ct + tag, key: key, associatedData: aad) == pt)
    }

    @Test(
        "cross-check with Python's cryptography package, both directions",
        .enabled(if: PythonCryptography.isAvailable, "python3 with the `cryptography` package is not installed (pip install cryptography)"))
    func pythonCrossCheck() throws {
        let aad = Array("passgate:replay:abc".utf8)
        for message in [plaintext, [], Array(repeating: 0x5A, count: 1000)] {
            let sealed = try AESGCM.seal(message, key: key, associatedData: aad)
            #expect(try PythonCryptography.run("open", key, sealed, aad) == message)

            let pythonSealed = try PythonCryptography.run("seal", key, message, aad)
            #expect(pythonSealed.count == message.count + 28)
            #expect(try AESGCM.open(pythonSealed, key: key, associatedData: aad) == message)
        }
        // And Python rejects what we would reject.
        var tampered = try AESGCM.seal(plaintext, key: key, associatedData: aad)
        tampered[20] ^= 1
        #expect(throws: PythonCryptography.Failure.self) { try PythonCryptography.run("open", key, tampered, aad) }
    }

    private func expectDecryptFailure(sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> [UInt8]) {
        #expect(sourceLocation: sourceLocation) {
            try body()
        } throws: { error in
            (error as? OpenSSLError)?.operation == .decrypt
        }
    }
}

func hex(_ text: String) -> [UInt8] {
    var bytes: [UInt8] = []
    var index = text.startIndex
    while index < text.endIndex {
        let next = text.index(index, offsetBy: 2)
        bytes.append(UInt8(text[index..<next], radix: 16)!)
        index = next
    }
    return bytes
}

extension Array where Element == UInt8 {
    func containsSubsequence(_ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, needle.count <= count else { return needle.isEmpty }
        return (0...(count - needle.count)).contains { self[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}

/// `python3` with `cryptography`'s AESGCM: an independent implementation of the sealed layout
/// (nonce || ciphertext || tag).
enum PythonCryptography {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static let isAvailable: Bool = {
        (try? runPython(["-c", "import cryptography.hazmat.primitives.ciphers.aead"])) != nil
    }()

    private static let script = """
        import os, sys
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM
        mode, key, data, aad = sys.argv[1], *(bytes.fromhex(a) for a in sys.argv[2:5])
        if mode == "open":
            out = AESGCM(key).decrypt(data[:12], data[12:], aad)
        else:
            nonce = os.urandom(12)
            out = nonce + AESGCM(key).encrypt(nonce, data, aad)
        print(out.hex())
        """

    static func run(_ mode: String, _ key: [UInt8], _ data: [UInt8], _ aad: [UInt8]) throws -> [UInt8] {
        let output = try runPython(["-c", script, mode, hexString(key), hexString(data), hexString(aad)])
        return hex(output.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    private static func hexString(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }

    private static func runPython(_ arguments: [String]) throws -> String {
        let result = try Subprocess.runBlocking("python3", arguments)
        guard result.status == 0 else { throw Failure(description: "python3 exited with \(result.status): \(result.stderrText)") }
        return result.stdoutText
    }
}
