import PassgateCore
import Testing

@Suite("byte scans over strings")
struct UTF8ScanTests {
    @Test("allUTF8 agrees with utf8.allSatisfy for strings, substrings and every predicate")
    func agreesWithAllSatisfy() {
        let texts = ["", "a", "abc-DEF_1.2", "token with space", "中文", "x\u{7F}", String(repeating: "k", count: 300) + "!"]
        let predicates: [(UInt8) -> Bool] = [{ $0 > 0x20 && $0 < 0x7F }, { (48...57).contains($0) }, { $0 < 0x80 }, { _ in false }]
        for text in texts {
            let padded = "<<" + text + ">>"
            let inner = padded.dropFirst(2).dropLast(2)
            for predicate in predicates {
                #expect(text.allUTF8(predicate) == text.utf8.allSatisfy(predicate), "\(text)")
                #expect(inner.allUTF8(predicate) == text.utf8.allSatisfy(predicate), "\(text) as a Substring")
            }
        }
    }
}
