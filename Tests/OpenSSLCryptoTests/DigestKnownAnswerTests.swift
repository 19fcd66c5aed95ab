import OpenSSLCrypto
import Testing

/// Published known-answer vectors: RFC 1321 (MD5), FIPS 180-2 (SHA-256), RFC 4231 (HMAC-SHA256).
@Suite("Digest known answers")
struct DigestKnownAnswerTests {
    struct Vector: Sendable, CustomTestStringConvertible {
        let input: String
        let hex: String
        var testDescription: String { input.count > 24 ? "\"\(input.prefix(24))…\" (\(input.count) chars)" : "\"\(input)\"" }
    }

    /// RFC 1321 appendix A.5, the whole test suite.
    static let md5Suite: [Vector] = [
        Vector(input: "", hex: "d41d8cd98f00b204e9800998ecf8427e"),
        Vector(input: "a", hex: "0cc175b9c0f1b6a831c399e269772661"),
        Vector(input: "abc", hex: "900150983cd24fb0d6963f7d28e17f72"),
        Vector(input: "message digest", hex: "f96b697d7cb7938d525a2f31aaf161d0"),
        Vector(input: "abcdefghijklmnopqrstuvwxyz", hex: "c3fcd3d76192e4007dfb496cca67e13b"),
        Vector(
            input: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
            hex: "d174ab98d277d9f5a5611c2c9f419d9f"
        ),
        Vector(
            input: "12345678901234567890123456789012345678901234567890123456789012345678901234567890",
            hex: "57edf4a22be3c955ac49da2e2107b67a"
        ),
    ]

    /// FIPS 180-2 appendix B (one- and two-block messages) and the empty string.
    static let sha256Vectors: [Vector] = [
        Vector(input: "", hex: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        Vector(input: "abc", hex: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        Vector(
            input: "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            hex: "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
    ]

    @Test("MD5 matches every RFC 1321 test-suite vector", arguments: md5Suite)
    func md5(vector: Vector) throws {
        let digest = try Digest.md5(Array(vector.input.utf8))
        #expect(digest.count == 16)
        #expect(Hex.lowercase(digest) == vector.hex)
    }

    @Test("SHA-256 matches the FIPS 180-2 vectors", arguments: sha256Vectors)
    func sha256(vector: Vector) throws {
        let digest = try Digest.sha256(Array(vector.input.utf8))
        #expect(digest.count == 32)
        #expect(Hex.lowercase(digest) == vector.hex)
    }

    @Test("SHA-256 of one million 'a' matches FIPS 180-2 B.3")
    func sha256MillionA() throws {
        let digest = try Digest.sha256([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))
        #expect(Hex.lowercase(digest) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test("MD5 and SHA-256 interleaved on many tasks: each reused context gives every vector's digest")
    func interleavedReuse() async throws {
        let mismatches = await withTaskGroup(of: Int.self) { group in
            for task in 0..<8 {
                group.addTask {
                    var wrong = 0
                    for round in 0..<200 {
                        // Alternating algorithms, so a context last used for one is reused for the other.
                        let vectors = (task + round).isMultiple(of: 2) ? Self.md5Suite : Self.sha256Vectors
                        let vector = vectors[round % vectors.count]
                        let bytes = Array(vector.input.utf8)
                        let digest = vectors.count == Self.md5Suite.count ? try? Digest.md5(bytes) : try? Digest.sha256(bytes)
                        if digest.map(Hex.lowercase) != vector.hex { wrong += 1 }
                    }
                    return wrong
                }
            }
            return await group.reduce(0, +)
        }
        #expect(mismatches == 0)
    }

    @Test("digests accept any byte sequence, not just arrays")
    func anySequence() throws {
        #expect(try Digest.sha256("abc".utf8) == Digest.sha256(Array("abc".utf8)))
        #expect(try Digest.md5("abc".utf8.lazy.map { $0 }) == Digest.md5(Array("abc".utf8)))
        #expect(try Digest.hmacSHA256(key: "Jefe".utf8, data: "what do ya want for nothing?".utf8)
            == Digest.hmacSHA256(key: Array("Jefe".utf8), data: Array("what do ya want for nothing?".utf8)))
    }

    struct HMACVector: Sendable, CustomTestStringConvertible {
        let name: String
        let key: [UInt8]
        let data: [UInt8]
        /// Expected output; shorter than 32 bytes for the truncated-output case 5.
        let hex: String
        var testDescription: String { name }
    }

    /// RFC 4231 section 4, HMAC-SHA256 results. Case 5 specifies only the first 128 bits.
    static let rfc4231: [HMACVector] = [
        HMACVector(
            name: "RFC 4231 test case 1",
            key: [UInt8](repeating: 0x0b, count: 20),
            data: Array("Hi There".utf8),
            hex: "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
        ),
        HMACVector(
            name: "RFC 4231 test case 2 (key shorter than the output)",
            key: Array("Jefe".utf8),
            data: Array("what do ya want for nothing?".utf8),
            hex: "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        ),
        HMACVector(
            name: "RFC 4231 test case 3",
            key: [UInt8](repeating: 0xaa, count: 20),
            data: [UInt8](repeating: 0xdd, count: 50),
            hex: "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"
        ),
        HMACVector(
            name: "RFC 4231 test case 4",
            key: Array(1...25),
            data: [UInt8](repeating: 0xcd, count: 50),
            hex: "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"
        ),
        HMACVector(
            name: "RFC 4231 test case 5 (first 128 bits)",
            key: [UInt8](repeating: 0x0c, count: 20),
            data: Array("Test With Truncation".utf8),
            hex: "a3b6167473100ee06e0c796c2955552b"
        ),
        HMACVector(
            name: "RFC 4231 test case 6 (131-byte key, hashed first)",
            key: [UInt8](repeating: 0xaa, count: 131),
            data: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
            hex: "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
        ),
        HMACVector(
            name: "RFC 4231 test case 7 (131-byte key and data)",
            key: [UInt8](repeating: 0xaa, count: 131),
            data: Array(
                ("This is a test using a larger than block-size key and a larger than block-size data. "
                    + "The key needs to be hashed before being used by the HMAC algorithm.").utf8
            ),
            hex: "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"
        ),
    ]

    @Test("HMAC-SHA256 matches RFC 4231", arguments: rfc4231)
    func hmac(vector: HMACVector) throws {
        let mac = try Digest.hmacSHA256(key: vector.key, data: vector.data)
        #expect(mac.count == 32)
        let expected = try #require(Hex.decode(vector.hex))
        #expect(Array(mac.prefix(expected.count)) == expected)
    }

    @Test("HMAC-SHA256 with an empty key and empty data (Python hmac/hashlib reference)")
    func hmacEmptyKey() throws {
        let mac = try Digest.hmacSHA256(key: [UInt8](), data: [UInt8]())
        #expect(Hex.lowercase(mac) == "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad")
    }

    static let rfc2202: [HMACVector] = [
        HMACVector(name: "1", key: [UInt8](repeating: 0x0b, count: 20), data: Array("Hi There".utf8),
                   hex: "b617318655057264e28bc0b6fb378c8ef146be00"),
        HMACVector(name: "2", key: Array("Jefe".utf8), data: Array("what do ya want for nothing?".utf8),
                   hex: "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79"),
        HMACVector(name: "3", key: [UInt8](repeating: 0xaa, count: 20), data: [UInt8](repeating: 0xdd, count: 50),
                   hex: "125d7342b9ac11cd91a39af48aa17b4f63f175d3"),
        HMACVector(name: "6", key: [UInt8](repeating: 0xaa, count: 80),
                   data: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
                   hex: "aa4ae5e15272d00e95705637ce8a3b55ed402112"),
    ]

    @Test("HMAC-SHA1 matches RFC 2202", arguments: rfc2202)
    func hmacSHA1(vector: HMACVector) throws {
        let mac = try Digest.hmacSHA1(key: vector.key, data: vector.data)
        #expect(Hex.lowercase(mac) == vector.hex)
    }

    @Test("a one-bit change in the input changes every digest")
    func avalanche() throws {
        let input = Array("13800138000".utf8)
        var flipped = input
        flipped[0] ^= 0x01
        #expect(try Digest.md5(input) != Digest.md5(flipped))
        #expect(try Digest.sha256(input) != Digest.sha256(flipped))
        #expect(try Digest.hmacSHA256(key: input, data: input) != Digest.hmacSHA256(key: flipped, data: input))
        #expect(try Digest.hmacSHA256(key: input, data: input) != Digest.hmacSHA256(key: input, data: flipped))
    }
}
