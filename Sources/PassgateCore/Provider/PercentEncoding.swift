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
}
