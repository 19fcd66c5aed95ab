import Testing

import PassgateCore

/// The scheme and header-name checks fold only A-Z, in place; they must agree with
/// `lowercased()` on every ASCII input and never match across other bytes.
@Suite("ASCII case-insensitive comparisons")
struct ASCIICaseTests {
    static let samples = [
        "https://carrier.example/x", "HTTPS://carrier.example", "HtTpS:", "https", "http://carrier.example", "", "h",
        "Expect", "EXPECT", "expect", "expects", "Expec", "Content-Type", "content-type", "CONTENT-TYPE", "Content_Type",
        "\u{C9}xpect", "ex\u{0}pect", "https\u{3A}", "[ttps:", "{ttps:", "@ttps:",
    ]

    @Test("prefix and equality agree with lowercased() on ASCII text")
    func agreesWithLowercased() {
        for text in Self.samples where text.utf8.allSatisfy({ $0 < 0x80 }) {
            #expect(ASCIICase.hasPrefix(text, lowercased: "https:") == text.lowercased().hasPrefix("https:"), "\(text)")
            #expect(ASCIICase.equals(text, lowercased: "expect") == (text.lowercased() == "expect"), "\(text)")
            for other in Self.samples where other.utf8.allSatisfy({ $0 < 0x80 }) {
                #expect(ASCIICase.equals(text, other) == (text.lowercased() == other.lowercased()), "\(text) vs \(other)")
            }
        }
    }

    @Test("bytes that differ only in bit 0x20 outside A-Z do not match")
    func foldsOnlyLetters() {
        // '[' (0x5B) and '{' (0x7B), '@' (0x40) and '`' (0x60): one bit apart, like 'H' and 'h'.
        #expect(!ASCIICase.equals("[", "{"))
        #expect(!ASCIICase.equals("@", "`"))
        #expect(!ASCIICase.hasPrefix("{ttps://x", lowercased: "[ttps:"))
        #expect(!ASCIICase.equals("\u{C9}xpect", lowercased: "expect"))
        #expect(ASCIICase.equals("\u{C9}xpect", "\u{C9}XPECT"))
    }
}
