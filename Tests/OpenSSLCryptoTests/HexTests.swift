import OpenSSLCrypto
import Testing

@Suite("Hex encoding")
struct HexTests {
    static let allBytes = [UInt8](0...255)

    @Test("encodes in both cases, two digits per byte, high nibble first")
    func encodes() {
        let bytes: [UInt8] = [0x00, 0x01, 0x7F, 0x80, 0xAB, 0xCD, 0xEF, 0xFF]
        #expect(Hex.uppercase(bytes) == "00017F80ABCDEFFF")
        #expect(Hex.lowercase(bytes) == "00017f80abcdefff")
        #expect(Hex.uppercase([UInt8]()) == "")
        #expect(Hex.lowercase([UInt8]()) == "")
        // Contiguous storage is written directly; any other sequence takes the general path.
        #expect(Hex.uppercase(bytes[2...]) == "7F80ABCDEFFF")
        #expect(Hex.uppercase(bytes.lazy.map { $0 }) == "00017F80ABCDEFFF")
        #expect(Hex.lowercase(Self.allBytes.lazy.filter { _ in true }) == Hex.lowercase(Self.allBytes))
    }

    @Test("every byte value round-trips through both cases")
    func roundTrip() throws {
        let upper = Hex.uppercase(Self.allBytes)
        let lower = Hex.lowercase(Self.allBytes)
        #expect(upper.count == 512)
        #expect(upper == lower.uppercased())
        #expect(try #require(Hex.decode(upper)) == Self.allBytes)
        #expect(try #require(Hex.decode(lower)) == Self.allBytes)
    }

    @Test("decodes mixed case and substrings")
    func decodesMixedCase() {
        #expect(Hex.decode("aBcD") == [0xAB, 0xCD])
        #expect(Hex.decode("xx0aFF".dropFirst(2)) == [0x0A, 0xFF])
        #expect(Hex.decode("") == [])
    }

    @Test(
        "decode rejects odd lengths and non-hex characters",
        arguments: ["0", "abc", "0g", "g0", "zz", "12 34", " 1234", "1234\n", "0x12", "12-34", "１２", "éé", "+1", "\u{0}0"]
    )
    func rejects(text: String) {
        #expect(Hex.decode(text) == nil)
    }
}
