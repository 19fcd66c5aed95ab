@testable import PassgateCore
import Foundation
import Testing

@Suite("JSONText: the one JSON string escaper")
struct JSONTextTests {
    static func quoted(_ text: String) -> [UInt8] {
        var output: [UInt8] = []
        JSONText.appendQuoted(text, to: &output)
        return output
    }

    @Test("every ASCII character and some non-ASCII round-trip through JSONSerialization, with no raw control byte left")
    func roundTrip() throws {
        let ascii = String(decoding: (0..<128).map { UInt8($0) }, as: UTF8.self)
        for text in [ascii, "", "plain", "手机号 13800138000 😀", "\"\\/\u{2028}", String(repeating: "a\"b", count: 500)] {
            let bytes = Self.quoted(text)
            #expect(!bytes.contains { $0 < 0x20 || $0 == 0x7F })
            let decoded = try JSONSerialization.jsonObject(with: Data(bytes), options: .fragmentsAllowed) as? String
            #expect(decoded == text)
        }
    }

    @Test("escapes use the short forms where JSON has them, else \\u00XX; everything else is copied as it is")
    func escapeForms() {
        #expect(String(decoding: Self.quoted("a\"b\\c\nd\re\tf\u{08}g\u{0C}h"), as: UTF8.self) == #""a\"b\\c\nd\re\tf\bg\fh""#)
        #expect(String(decoding: Self.quoted("\u{01}\u{1F}\u{7F}"), as: UTF8.self) == #""\u0001\u001f\u007f""#)
        #expect(String(decoding: Self.quoted("/é"), as: UTF8.self) == "\"/é\"")
    }

    @Test("the eight-bytes-at-a-time scan finds exactly the bytes a byte-by-byte scan finds, at every alignment")
    func wordScanMatchesByteScan() {
        var generator = SplitMix64(seed: 0x5EED)
        let interesting: [UInt8] = [0x00, 0x08, 0x0A, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x5B, 0x5C, 0x5D, 0x7E, 0x7F, 0x80, 0x9F, 0xA0, 0xC3, 0xE6, 0xFF, 0x41]
        for _ in 0..<5_000 {
            let count = Int(generator.next() % 40)
            let bytes = (0..<count).map { _ in
                generator.next() % 3 == 0 ? UInt8(truncatingIfNeeded: generator.next()) : interesting[Int(generator.next() % UInt64(interesting.count))]
            }
            bytes.withUnsafeBufferPointer { buffer in
                for start in 0...count {
                    let expected = (start..<count).first { JSONText.needsEscape(buffer[$0]) } ?? count
                    #expect(JSONText.nextEscape(in: buffer, from: start) == expected, "\(bytes) from \(start)")
                }
            }
        }
    }

    @Test("object members of every size and escape density round-trip, past the stack scratch size and at six bytes out per byte in")
    func membersRoundTrip() throws {
        let control = String(decoding: Array(repeating: UInt8(0x01), count: 700), as: UTF8.self)
        let cases: [(String, String)] = [
            ("k", ""), ("", "v"), ("key \"quoted\"", "a\nb"), (control, control),
            (String(repeating: "x", count: 5_000), String(repeating: "手机号\"", count: 900)),
        ]
        var writer = JSONObjectWriter(capacity: 16)
        for (key, value) in cases { writer.add(key, value) }
        writer.add("n", 7)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(writer.finish())) as? [String: Any])
        for (key, value) in cases { #expect(object[key] as? String == value, "key of \(key.utf8.count) bytes") }
        #expect(object["n"] as? Int == 7)
    }

    @Test("appends to what is already there")
    func appends() {
        var output = Array("{\"k\":".utf8)
        JSONText.appendQuoted("v", to: &output)
        #expect(String(decoding: output, as: UTF8.self) == "{\"k\":\"v\"")
    }
}

@Suite("MessageID from the buffered CSPRNG")
struct MessageIDPoolTests {
    @Test("20,000 ids (many pool refills) are distinct, 32 lowercase hex digits, UUID v4")
    func distinctAcrossRefills() {
        let ids = (0..<20_000).map { _ in MessageID.make() }
        #expect(Set(ids).count == ids.count)
        for id in ids.prefix(2_000) {
            let bytes = Array(id.utf8)
            #expect(bytes.count == 32 && bytes.allSatisfy { (48...57).contains($0) || (97...102).contains($0) })
            #expect(bytes[12] == UInt8(ascii: "4"))
            #expect([UInt8(ascii: "8"), UInt8(ascii: "9"), UInt8(ascii: "a"), UInt8(ascii: "b")].contains(bytes[16]))
        }
    }

    @Test("ids made concurrently by many tasks never repeat")
    func concurrentDistinct() async {
        let batches = await withTaskGroup(of: [String].self) { group in
            for _ in 0..<8 { group.addTask { (0..<2_000).map { _ in MessageID.make() } } }
            return await group.reduce(into: [String]()) { $0 += $1 }
        }
        #expect(Set(batches).count == 16_000)
    }
}

