/// Hex encoding and decoding, the carrier protocols' way of writing digests and ciphertexts.
public enum Hex {
    private static let upper = Array("0123456789ABCDEF".utf8)
    private static let lower = Array("0123456789abcdef".utf8)

    /// `bytes` as uppercase hex (what CMCC expects for signatures and digests).
    public static func uppercase(_ bytes: some Sequence<UInt8>) -> String {
        encode(bytes, alphabet: upper)
    }

    /// `bytes` as lowercase hex.
    public static func lowercase(_ bytes: some Sequence<UInt8>) -> String {
        encode(bytes, alphabet: lower)
    }

    /// Decodes hex in either case; `nil` for an odd length or any non-hex character.
    public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count % 2 == 0 else { return nil }
        var output = [UInt8]()
        output.reserveCapacity(utf8.count / 2)
        var index = 0
        while index < utf8.count {
            guard let high = nibble(utf8[index]), let low = nibble(utf8[index + 1]) else { return nil }
            output.append(high << 4 | low)
            index += 2
        }
        return output
    }

    private static func encode(_ bytes: some Sequence<UInt8>, alphabet: [UInt8]) -> String {
        // Signatures, digests and msgids are hexed on every request: write straight into the
        // string's storage when the bytes are contiguous (they always are here).
        let direct = bytes.withContiguousStorageIfAvailable { buffer in
            String(unsafeUninitializedCapacity: buffer.count * 2) { output in
                for (index, byte) in buffer.enumerated() {
                    output[2 * index] = alphabet[Int(byte >> 4)]
                    output[2 * index + 1] = alphabet[Int(byte & 0x0F)]
                }
                return buffer.count * 2
            }
        }
        if let direct { return direct }
        var output = [UInt8]()
        output.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            output.append(alphabet[Int(byte >> 4)])
            output.append(alphabet[Int(byte & 0x0F)])
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func nibble(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
