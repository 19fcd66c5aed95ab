import OpenSSLCrypto
import Testing

@Suite("SecureRandom and constant-time comparison")
struct SecureRandomTests {
    @Test("bytes(count:) returns exactly count bytes", arguments: [0, 1, 32, 4096])
    func lengths(count: Int) throws {
        #expect(try SecureRandom.bytes(count: count).count == count)
    }

    @Test("two draws differ")
    func drawsDiffer() throws {
        let first = try SecureRandom.bytes(count: 32)
        let second = try SecureRandom.bytes(count: 32)
        // Equal 256-bit draws have probability 2^-256: equality means the generator is broken.
        #expect(first != second)
        #expect(first != [UInt8](repeating: 0, count: 32), "not left zero-filled")
    }

    @Test("a large draw uses every byte value and is not zero-filled")
    func largeDrawLooksRandom() throws {
        let bytes = try SecureRandom.bytes(count: 4096)
        // 4096 uniform bytes miss some value with probability about 256 * e^-16 ≈ 3e-5.
        #expect(Set(bytes).count >= 250)
        let ones = bytes.reduce(0) { $0 + $1.nonzeroBitCount }
        // Mean 16384, standard deviation 64: 10 sigma either side.
        #expect((15_744...17_024).contains(ones), "\(ones) one-bits in 32768")
    }

    @Test("constantTimeEquals: equal, unequal, different lengths, empty")
    func constantTimeEqualsCases() throws {
        let mac = try Digest.hmacSHA256(key: Array("k".utf8), data: Array("m".utf8))
        var lastBitFlipped = mac
        lastBitFlipped[31] ^= 0x01
        var firstBitFlipped = mac
        firstBitFlipped[0] ^= 0x80
        #expect(constantTimeEquals(mac, mac))
        #expect(constantTimeEquals(mac, Array(mac)))
        #expect(!constantTimeEquals(mac, lastBitFlipped))
        #expect(!constantTimeEquals(mac, firstBitFlipped))
        #expect(!constantTimeEquals(mac, Array(mac.prefix(31))), "a prefix is not equal")
        #expect(!constantTimeEquals(Array(mac.prefix(31)), mac))
        #expect(!constantTimeEquals(mac, mac + [0]))
        #expect(constantTimeEquals([], []))
        #expect(!constantTimeEquals([], [0]))
        #expect(!constantTimeEquals([0], []))
        #expect(constantTimeEquals([0], [0]))
        #expect(!constantTimeEquals([0], [1]))
    }
}
