/// Fixed-point numbers as text (the latencies in access and audit lines),
/// written in place into the string's own storage with integer arithmetic: `String(format:)`
/// looks up a locale on every call, and interpolating the parts made three strings per number.
public enum DecimalText {
    /// `scaled / 10^fractionDigits` in decimal: with exactly `fractionDigits` decimals, or, when
    /// `trimmed`, without trailing zeros (and without the point when none is left).
    /// `fractionDigits` is 0...9.
    public static func string(scaled: Int64, fractionDigits: Int, trimmed: Bool) -> String {
        precondition((0...9).contains(fractionDigits), "fractionDigits must be 0...9")
        var rest = scaled.magnitude
        var fraction = fractionDigits
        if trimmed {
            while fraction > 0, rest % 10 == 0 {
                rest /= 10
                fraction -= 1
            }
        }
        var integerDigits = 1
        var power: UInt64 = 1
        for _ in 0..<fraction { power *= 10 }
        var integerPart = rest / power
        while integerPart >= 10 {
            integerPart /= 10
            integerDigits += 1
        }
        let length = (scaled < 0 ? 1 : 0) + integerDigits + (fraction > 0 ? fraction + 1 : 0)
        return String(unsafeUninitializedCapacity: length) { text in
            var index = length
            func put(_ byte: UInt8) {
                index -= 1
                text[index] = byte
            }
            for _ in 0..<fraction {
                put(UInt8(ascii: "0") + UInt8(rest % 10))
                rest /= 10
            }
            if fraction > 0 { put(UInt8(ascii: ".")) }
            repeat {
                put(UInt8(ascii: "0") + UInt8(rest % 10))
                rest /= 10
            } while rest > 0
            if scaled < 0 { put(UInt8(ascii: "-")) }
            return length
        }
    }
}
