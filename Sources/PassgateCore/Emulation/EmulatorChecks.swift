import OpenSSLCrypto

/// Checks several providers' emulators share.
public enum EmulatorChecks {
    /// Why the 17-digit Beijing time `text` is unacceptable at `now`, or `nil`.
    public static func timeProblem(_ text: String, field: String, now: Int64, maxSkewSeconds: Int) -> String? {
        guard text.utf8.count == 17, text.utf8.allSatisfy({ (48...57).contains($0) }) else {
            return "\(field) must be 17 digits yyyyMMddHHmmssSSS in Beijing time"
        }
        guard let milliseconds = BeijingTimestamp.parse(text) else {
            return "\(field) \(text) is not a valid date and time"
        }
        let skew = milliseconds - now
        guard abs(skew) > Int64(maxSkewSeconds) * 1000 else { return nil }
        let direction = skew > 0 ? "ahead of" : "behind"
        return "\(field) \(text) is \(abs(skew) / 1000) s \(direction) Beijing time now (\(BeijingTimestamp.string(milliseconds: now))); "
            + "at most \(maxSkewSeconds) s allowed (is the caller's clock or time zone wrong?)"
    }

    /// Whether hex `provided` equals `expected` (uppercase hex), ignoring case, in constant time.
    public static func hexMatches(_ provided: String, expected: String) -> Bool {
        let folded = provided.utf8.map { (97...102).contains($0) ? $0 - 32 : $0 }
        return constantTimeEquals(folded, Array(expected.utf8))
    }

    /// Whether `text` is hex of exactly `byteCount` bytes, in either case.
    public static func isHex(_ text: String, byteCount: Int) -> Bool {
        text.utf8.count == byteCount * 2 && Hex.decode(text) != nil
    }
}

extension EmulatorChecks {
    /// Why `code` is not a numeric result code (1-8 digits) that `PUT /sandbox/faults` can force,
    /// or nil: the shape of most providers' codes.
    public static func numericCodeProblem(_ code: String) -> String? {
        let bytes = Array(code.utf8)
        guard !(1...8).contains(bytes.count) || !bytes.allSatisfy({ (48...57).contains($0) }) else { return nil }
        return "resultCode: must be a string of 1-8 digits (a result code of the provider such as \"104201\"), or \"\" to clear it"
    }
}
