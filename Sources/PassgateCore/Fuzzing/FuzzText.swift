/// Text checks the reply-fuzz host and the providers' fuzz entries share.
public enum FuzzText {
    /// The longest run of ASCII digits in `text`. A run of 7 or more in an error is treated as a
    /// possible phone number (11 digits, or a masked `138****8000`'s longest visible part is 4), so
    /// error texts must stay below it.
    public static func longestDigitRun(_ text: String) -> Int {
        var longest = 0
        var current = 0
        for byte in text.utf8 {
            current = (48...57).contains(byte) ? current + 1 : 0
            longest = max(longest, current)
        }
        return longest
    }

    /// Whether an echoed request id equals `sent` in any ASCII letter case (what the parsers accept).
    public static func isEcho(_ text: String, of sent: String) -> Bool {
        text.utf8.count == sent.utf8.count && zip(text.utf8, sent.utf8).allSatisfy { a, b in
            a == b || (a | 0x20 == b | 0x20 && (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(a | 0x20))
        }
    }
}
