/// The longest run of ASCII digits in `text`. A run of 7 or more in an error is treated as a
/// possible phone number (11 digits, or a masked `138****8000`'s longest visible part is 4), so
/// error texts must stay below it.
public func longestDigitRun(_ text: String) -> Int {
    var longest = 0
    var current = 0
    for byte in text.utf8 {
        current = (48...57).contains(byte) ? current + 1 : 0
        longest = max(longest, current)
    }
    return longest
}

/// `bytes` in hex, for messages about an input.
public func hexString(_ bytes: some Sequence<UInt8>) -> String {
    bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
}
