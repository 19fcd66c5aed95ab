import OpenSSLCrypto

/// Percent-encoding of request fields: RFC 3986's unreserved characters (`A-Z a-z 0-9 - _ . ~`)
/// kept, every other UTF-8 byte `%XX` in upper case. Alibaba Cloud signs exactly this form;
/// form bodies write a space as `+` instead (`spaceAsPlus`).
public enum PercentEncoding {
    public static func encode(_ text: String, spaceAsPlus: Bool = false) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x2D, 0x2E, 0x5F, 0x7E: output.unicodeScalars.append(Unicode.Scalar(byte))
            case 0x20 where spaceAsPlus: output += "+"
            default: output += "%" + Hex.uppercase([byte])
            }
        }
        return output
    }

    /// The fields of a form body (`name=value&…`, `+` as a space), in order; nil when an escape is
    /// malformed or a field is not UTF-8. `passgate sign` reads back what a provider signed with it.
    public static func formFields(_ body: [UInt8]) -> [(name: String, value: String)]? {
        var fields: [(name: String, value: String)] = []
        for pair in body.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = decode(parts[0]), let value = decode(parts.count > 1 ? parts[1] : []) else { return nil }
            fields.append((name, value))
        }
        return fields
    }

    private static func decode(_ encoded: ArraySlice<UInt8>) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(encoded.count)
        var index = encoded.startIndex
        while index < encoded.endIndex {
            let byte = encoded[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < encoded.endIndex, let high = hexValue(encoded[index + 1]), let low = hexValue(encoded[index + 2]) else { return nil }
                bytes.append(high << 4 | low)
                index += 3
            } else {
                bytes.append(byte == UInt8(ascii: "+") ? 0x20 : byte)
                index += 1
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }
}
