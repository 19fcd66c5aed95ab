import PassgateCore
import Foundation
import Testing

@Suite("ParsedJSON")
struct ParsedJSONTests {
    // MARK: Valid documents

    @Test("parses a typical CMCC login reply into its fields")
    func cmccLoginReply() throws {
        let reply = try parse(#"{"inresponseto":"abc","systemtime":"20240101120000123","resultCode":"103000","msisdn":"8f3c9a","taskId":"t1"}"#)
        #expect(reply.kindDescription == "an object")
        #expect(reply["inresponseto"]?.stringValue == "abc")
        #expect(reply["systemtime"]?.stringValue == "20240101120000123")
        #expect(reply["resultCode"] == .string("103000"))
        #expect(reply["msisdn"]?.stringValue == "8f3c9a")
        #expect(reply["taskId"]?.stringValue == "t1")
        #expect(reply["desc"] == nil)
        guard case .object(let members) = reply else { Issue.record("not an object"); return }
        #expect(members.map(\.key) == ["inresponseto", "systemtime", "resultCode", "msisdn", "taskId"])
    }

    @Test("parses header/body replies whether the body is nested or a JSON string")
    func headerBodyShapes() throws {
        let nested = try parse("""
            {
              "header": {"version": "1.0", "msgId": "m-1", "resultCode": "000", "timestamp": "20240101120000123"},
              "body": {"taskId": "t1", "resultDesc": "\\u6210\\u529f", "extra": [1, true, null, {"k": []}]}
            }
            """)
        #expect(nested["header"]?["msgId"]?.stringValue == "m-1")
        #expect(nested["body"]?["resultDesc"]?.stringValue == "成功")
        #expect(nested["body"]?["extra"] == .array([.number("1"), .bool(true), .null, .object([(key: "k", value: .array([]))])]))

        let stringified = try parse(#"{"header":{"msgId":"m-2","resultCode":1},"body":"{\"taskId\":\"t2\",\"resultDesc\":\"ok\"}"}"#)
        #expect(stringified["header"]?["resultCode"] == .number("1"))
        let body = try ParsedJSON.parse(Array(try #require(stringified["body"]?.stringValue).utf8))
        #expect(body["taskId"]?.stringValue == "t2")
        #expect(body["resultDesc"]?.stringValue == "ok")
    }

    @Test("a number keeps its exact text", arguments: ["0", "-0", "0.5", "1e5", "1E+5", "-1.5e-3", "103000", "1.000", "1e400", "-0.0e-00", "12345678901234567890123"])
    func numberText(text: String) throws {
        #expect(try parse(text) == .number(text))
        #expect(try parse(#"{"resultCode":\#(text)}"#)["resultCode"] == .number(text))
    }

    @Test("literals and whitespace parse", arguments: [
        ("true", ParsedJSON.bool(true)), ("false", .bool(false)), ("null", .null), (" \t\r\n[ ]\n", .array([])), ("{ }", .object([])),
        ("[\"\", 0 , {\"\":\"\"}]", .array([.string(""), .number("0"), .object([(key: "", value: .string(""))])])),
    ])
    func literals(text: String, expected: ParsedJSON) throws {
        #expect(try parse(text) == expected)
    }

    @Test("escapes, surrogate pairs and raw UTF-8 decode", arguments: [
        (#""\u00e9""#, "é"), (#""\u00C9\u00c9""#, "ÉÉ"), (#""\ud83d\ude00""#, "😀"), (#""\uD83D\uDE00!""#, "😀!"), (#""\/""#, "/"),
        (#""\"\\\b\f\n\r\t""#, "\"\\\u{08}\u{0C}\n\r\t"), (#""a\u0000b""#, "a\u{0}b"), (#""\uffff""#, "\u{FFFF}"),
        (#""中文 😀 \u4e2d\n中""#, "中文 😀 中\n中"), (#""plain""#, "plain"), (#""""#, ""),
    ])
    func escapes(json: String, expected: String) throws {
        let value = try parse(json)
        #expect(value.stringValue.map { Array($0.utf8) } == Array(expected.utf8))
    }

    @Test("when a key repeats, the subscript returns the last occurrence and all members are kept")
    func duplicateKeys() throws {
        let value = try parse(#"{"a":"1","b":2,"a":"3"}"#)
        #expect(value["a"] == .string("3"))
        #expect(value["b"] == .number("2"))
        guard case .object(let members) = value else { Issue.record("not an object"); return }
        #expect(members.map(\.key) == ["a", "b", "a"])
    }

    @Test("accessors answer nil for the wrong kind, and every kind describes itself")
    func accessorsAndKinds() throws {
        #expect(ParsedJSON.array([])["a"] == nil)
        #expect(ParsedJSON.string("x")["a"] == nil)
        #expect(ParsedJSON.number("1").stringValue == nil)
        #expect(ParsedJSON.null.stringValue == nil)
        let kinds: [(ParsedJSON, String)] = [
            (.string(""), "a string"), (.number("1"), "a number"), (.bool(false), "a boolean"), (.null, "null"),
            (.array([]), "an array"), (.object([]), "an object"),
        ]
        for (value, description) in kinds { #expect(value.kindDescription == description) }
    }

    @Test("objects are equal member by member, in order")
    func objectEquality() {
        let ab = ParsedJSON.object([(key: "a", value: .null), (key: "b", value: .bool(true))])
        #expect(ab == .object([(key: "a", value: .null), (key: "b", value: .bool(true))]))
        #expect(ab != .object([(key: "b", value: .bool(true)), (key: "a", value: .null)]))
        #expect(ab != .object([(key: "a", value: .null)]))
        #expect(ab != .object([(key: "a", value: .null), (key: "b", value: .bool(false))]))
        #expect(ParsedJSON.number("1") != .string("1"))
    }

    @Test("any byte collection parses, and offsets count from the collection's start")
    func collections() throws {
        let bytes = Array(#"{"a":[1,"é"]}"#.utf8)
        let expected = try ParsedJSON.parse(bytes)
        #expect(try ParsedJSON.parse(bytes.lazy.map { $0 }) == expected)  // no contiguous storage: copied
        #expect(try ParsedJSON.parse(Data(bytes)) == expected)
        #expect(try ParsedJSON.parse(#"{"a":[1,"é"]}"#.utf8) == expected)
        let slice = Array("xx[1,]".utf8)[2...]
        #expect(syntaxError(slice) == JSONFailure(problem: "unexpected character ']'", offset: 3))
        #expect(syntaxError(Array("[1,]".utf8).lazy.map { $0 }) == JSONFailure(problem: "unexpected character ']'", offset: 3))
    }

    // MARK: Invalid documents

    @Test("every non-RFC 8259 form is rejected with its problem and offset", arguments: [
        ("", "empty input", 0), (" \n", "empty input", 2), ("x", "unexpected character 'x'", 0),
        ("{\"a\":1,}", "unexpected character '}'", 7), ("[1,]", "unexpected character ']'", 3), ("[1 2]", "unexpected character '2'", 3),
        ("[,1]", "unexpected character ','", 1), ("[1,,2]", "unexpected character ','", 3), ("{,}", "unexpected character ','", 1),
        ("{\"a\":}", "unexpected character '}'", 5), ("{\"a\" 1}", "unexpected character '1'", 5), ("{1:2}", "unexpected character '1'", 1),
        ("{'a':1}", "unexpected character '''", 1), ("['a']", "unexpected character '''", 1),
        ("// c\n1", "unexpected character '/'", 0), ("/* c */ 1", "unexpected character '/'", 0), ("[1] // c", "trailing characters after the value", 4),
        ("NaN", "unexpected character 'N'", 0), ("Infinity", "unexpected character 'I'", 0), ("-Infinity", "invalid number", 1),
        ("01", "invalid number", 1), ("-01", "invalid number", 2), ("00", "invalid number", 1), ("+1", "unexpected character '+'", 0),
        (".5", "unexpected character '.'", 0), ("1.", "invalid number", 2), ("1.e5", "invalid number", 2), ("1e", "invalid number", 2),
        ("1e+", "invalid number", 3), ("-", "invalid number", 1), ("- 1", "invalid number", 1), ("0x10", "trailing characters after the value", 1),
        ("tru", "unexpected end of input", 3), ("True", "unexpected character 'T'", 0), ("nulx", "unexpected character 'x'", 3),
        ("truefalse", "trailing characters after the value", 4), ("[nul]", "unexpected character ']'", 4),
        ("\u{FEFF}{}", "unexpected character 0xEF", 0), ("\u{0B}1", "unexpected character 0x0B", 0), ("\u{0C}1", "unexpected character 0x0C", 0),
        ("\u{A0}1", "unexpected character 0xC2", 0),
        ("[1", "unexpected end of input", 2), ("[", "unexpected end of input", 1), ("{\"a\"", "unexpected end of input", 4),
        ("{\"a\":", "unexpected end of input", 5), ("{", "unexpected end of input", 1), ("[1]]", "trailing characters after the value", 3),
        ("1 2", "trailing characters after the value", 2), ("{\"a\":1}}", "trailing characters after the value", 7),
        ("\"abc", "unterminated string", 0), ("[\"abc\\", "unterminated string", 1), ("\"abc\\\"", "unterminated string", 0),
        ("\"a\\qb\"", "invalid escape '\\q'", 2), ("\"\\x41\"", "invalid escape '\\x'", 1), ("\"\\'\"", "invalid escape '\\''", 1),
        ("\"\\U00e9\"", "invalid escape '\\U'", 1), ("\"\\ \"", "invalid escape '\\' followed by 0x20", 1),
        ("\"\\u12G4\"", "invalid \\u escape", 1), ("\"\\u12\"", "invalid \\u escape", 1), ("\"\\u", "invalid \\u escape", 1),
        ("\"\\ud83d\"", "unpaired surrogate in \\u escape", 1), ("\"\\ude00\"", "unpaired surrogate in \\u escape", 1),
        ("\"\\ud83d\\u0041\"", "unpaired surrogate in \\u escape", 1), ("\"\\ud83dx\"", "unpaired surrogate in \\u escape", 1),
        ("\"\\ud83d\\ud83d\"", "unpaired surrogate in \\u escape", 1), ("\"\\ud83d\\n\"", "unpaired surrogate in \\u escape", 1),
        ("\"\\ud83d\\uZ\"", "invalid \\u escape", 7),
        ("\"a\tb\"", "control character in string", 2), ("\"a\nb\"", "control character in string", 2), ("{\"k\u{1F}\":1}", "control character in string", 3),
        ("\"\\n\u{0}\"", "control character in string", 3),
    ])
    func invalid(text: String, problem: String, offset: Int) {
        #expect(syntaxError(Array(text.utf8)) == JSONFailure(problem: problem, offset: offset))
    }

    @Test("the error describes its problem and byte offset")
    func errorDescription() {
        do {
            _ = try ParsedJSON.parse(Array("[1,x]".utf8))
            Issue.record("accepted")
        } catch {
            #expect(error.description == "unexpected character 'x' at byte 3")
        }
    }

    @Test("invalid UTF-8 in a string is rejected at the offending byte", arguments: [
        ([0x22, 0xC3, 0x28, 0x22], 1), ([0x22, 0x61, 0xC3, 0x28, 0x22], 2), ([0x22, 0xC0, 0xAF, 0x22], 1), ([0x22, 0xED, 0xA0, 0x80, 0x22], 1),
        ([0x22, 0xE4, 0xB8, 0x22], 1), ([0x22, 0x80, 0x22], 1), ([0x22, 0xFF, 0x22], 1), ([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], 1),
        ([0x22, 0xE4, 0xB8, 0xAD, 0xC3, 0x22], 4), ([0x22, 0x5C, 0x6E, 0xC3, 0x28, 0x22], 3), ([0x22, 0xC3, 0x5C, 0x6E, 0x22], 1),
        ([0x7B, 0x22, 0xFE, 0x22, 0x3A, 0x31, 0x7D], 2),
    ] as [([UInt8], Int)])
    func invalidUTF8(bytes: [UInt8], offset: Int) {
        #expect(syntaxError(bytes) == JSONFailure(problem: "invalid UTF-8", offset: offset))
    }

    @Test("a non-ASCII byte outside a string is an unexpected character")
    func invalidByteOutsideString() {
        #expect(syntaxError([0x5B, 0xC3, 0xA9, 0x5D]) == JSONFailure(problem: "unexpected character 0xC3", offset: 1))
    }

    // MARK: Nesting

    @Test("64 levels of nesting parse; the 65th is rejected at its bracket", arguments: ["[", "{\"a\":"])
    func depthLimit(opener: String) throws {
        let closer = opener == "[" ? "]" : "}"
        func document(_ depth: Int) -> [UInt8] {
            Array((String(repeating: opener, count: depth) + "0" + String(repeating: closer, count: depth)).utf8)
        }
        var value = try ParsedJSON.parse(document(64))
        for _ in 0..<64 {
            switch value {
            case .array(let elements) where elements.count == 1: value = elements[0]
            case .object(let members) where members.count == 1: value = members[0].value
            default: Issue.record("unexpected shape \(value.kindDescription)"); return
            }
        }
        #expect(value == .number("0"))
        #expect(syntaxError(document(65)) == JSONFailure(problem: "nesting deeper than 64 levels", offset: 64 * opener.utf8.count))
    }

    @Test("100,000 unclosed brackets are rejected at the nesting limit instead of overflowing the stack")
    func deepInputRejected() {
        for opener in ["[", "{\"a\":", "[{\"a\":"] {
            let bytes = Array(String(repeating: opener, count: 100_000).utf8)
            #expect(syntaxError(bytes)?.problem == "nesting deeper than 64 levels")
        }
    }

    // MARK: Against JSONSerialization

    /// Documents on which both parsers must agree. Left out because JSONSerialization (Linux,
    /// Swift 6.3) differs, all checked by hand: it accepts trailing commas (`[1,]`, `{"a":1,}`)
    /// and a leading UTF-8 BOM, which RFC 8259 forbids and we reject; it accepts nesting up to
    /// 512 levels where we stop at 64; and it rejects numbers beyond Double's range such as
    /// `1e400`, which RFC 8259 allows and we keep as text.
    static let differentialDocuments: [String] = [
        // Valid.
        #"{"inresponseto":"abc","systemtime":"20240101120000123","resultCode":"103000","msisdn":"8f","taskId":"t1"}"#,
        #"{"header":{"msgId":"m","resultCode":"000"},"body":{"taskId":"t","resultDesc":"\u6210\u529f"}}"#,
        #"{"header":{},"body":"{\"taskId\":\"t\"}"}"#, #"{"a":1,"a":2}"#, #"{"a":"x","b":{"a":"y"},"a":"z"}"#,
        "[]", "{}", " [ 1 , 2 ] ", "\t\r\n{}\n", "[1] ", "0", "-0", "1.5e-3", "1E+5", "103000", "1e-400", "true", "null",
        #""é\u00e9\ud83d\ude00\/""#, #"["\"\\\b\f\n\r\t"]"#, #""\u0000""#, "\"\u{7F}\"", #"{"中文":"值","":""}"#, #"[[[[[[[[[[]]]]]]]]]]"#,
        // Invalid in both.
        "", " ", "{", "01", "-01", "[01]", "1.", "0.", "1.e5", ".5", "-.5", "+1", "1e", "1E", "-", "[-]", "123abc", "NaN", "Infinity",
        "tru", "nul", "[true false]", "[1 2]", "[\"a\" \"b\"]", #"{"a":1 "b":2}"#, "[,]", "{,}", "[1,,]", #"{"a":1,,}"#, "{'a':1}",
        "// c\n{}", "/*c*/{}", "{} x", "[1]x", "1 2", "[1]]", "\u{0}", "\u{0B}[]", "\u{0C}[]", "\u{1C}1", "\u{A0}[]", "\u{85}1",
        #""\q""#, #""\u12""#, #""\u00G0""#, #""\ud83d""#, #""\ude00""#, #""\ud83d\u0041""#, #""\uD800\uD800""#,
        "\"a\tb\"", "\"a\nb\"", #"{"a" 1}"#, "{1:2}",
    ]

    @Test("accepts exactly what JSONSerialization accepts, with the same strings", arguments: differentialDocuments)
    func differential(document: String) {
        compareWithFoundation(Array(document.utf8), requireSameVerdict: true)
    }

    @Test("invalid UTF-8 is rejected by both parsers")
    func differentialUTF8() {
        for bytes: [UInt8] in [[0x22, 0xC3, 0x28, 0x22], [0x22, 0xFF, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22]] {
            compareWithFoundation(bytes, requireSameVerdict: true)
        }
    }

    @Test("2,000 random mutations of a valid document never crash, and what we accept JSONSerialization accepts")
    func fuzz() {
        let seed = Array(#"{"header":{"msgId":"m-1","resultCode":"000"},"body":{"taskId":"t1","n":[0,-1.5e3,true,null],"s":"a\"\\\/\u00e9\ud83d\ude00","é":"中"}}"#.utf8)
        let alphabet = Array(#"{}[],:"\ -+.0123456789eEtrufalsn/bu"#.utf8) + [0x00, 0x09, 0x0A, 0x1F, 0x7F, 0x80, 0xC3, 0xE4, 0xED, 0xFF]
        var random = SplitMix64(seed: 0x5EED_0F_1A5E)
        var accepted = 0
        for _ in 0..<2_000 {
            var bytes = seed
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let position = Int.random(in: 0..<bytes.count, using: &random)
                let byte = Bool.random(using: &random) ? alphabet.randomElement(using: &random)! : UInt8.random(in: 0...255, using: &random)
                switch Int.random(in: 0..<4, using: &random) {
                case 0: bytes[position] = byte
                case 1: bytes.insert(byte, at: position)
                case 2 where bytes.count > 1: bytes.remove(at: position)
                default: bytes.insert(contentsOf: Array(bytes[position...].prefix(Int.random(in: 1...8, using: &random))), at: position)
                }
            }
            if compareWithFoundation(bytes, requireSameVerdict: false) { accepted += 1 }
        }
        #expect(accepted > 0 && accepted < 2_000)  // the mutations exercised both outcomes
    }
}

// MARK: - Helpers

/// An error's problem and offset, so `#expect` prints both when they differ.
private struct JSONFailure: Equatable, CustomStringConvertible {
    let problem: String
    let offset: Int
    var description: String { "\(problem) at \(offset)" }
}

private func parse(_ text: String) throws -> ParsedJSON {
    try ParsedJSON.parse(Array(text.utf8))
}

private func syntaxError(_ bytes: some Collection<UInt8>) -> JSONFailure? {
    do {
        _ = try ParsedJSON.parse(bytes)
        return nil
    } catch {
        return JSONFailure(problem: error.problem, offset: error.offset)
    }
}

/// Parses `bytes` with both parsers; whenever ours accepts, JSONSerialization must too and must
/// decode the same strings and keys (byte for byte: Swift's `==` would equate canonical forms).
/// Returns whether ours accepted.
@discardableResult
private func compareWithFoundation(_ bytes: [UInt8], requireSameVerdict: Bool, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
    let ours = try? ParsedJSON.parse(bytes)
    let theirs = try? JSONSerialization.jsonObject(with: Data(bytes), options: .fragmentsAllowed)
    let shown = String(decoding: bytes, as: UTF8.self).debugDescription
    if requireSameVerdict {
        #expect((ours != nil) == (theirs != nil), "ours \(ours != nil ? "accepts" : "rejects") \(shown), JSONSerialization does not", sourceLocation: sourceLocation)
    }
    guard let ours else { return false }
    guard let theirs else {
        if hasNumberBeyondDouble(ours) { return true }  // see `differentialDocuments`
        Issue.record("we accept \(shown) but JSONSerialization rejects it", sourceLocation: sourceLocation)
        return true
    }
    #expect(sameContent(ours, theirs), "decoded differently: \(shown)", sourceLocation: sourceLocation)
    return true
}

private func hasNumberBeyondDouble(_ value: ParsedJSON) -> Bool {
    switch value {
    case .number(let text): return Double(text).map { !$0.isFinite } ?? true
    case .array(let elements): return elements.contains(where: hasNumberBeyondDouble)
    case .object(let members): return members.contains { hasNumberBeyondDouble($0.value) }
    case .string, .bool, .null: return false
    }
}

private func sameContent(_ ours: ParsedJSON, _ theirs: Any) -> Bool {
    switch ours {
    case .string(let text): return (theirs as? String).map { Array($0.utf8) == Array(text.utf8) } ?? false
    // Numbers and booleans are both NSNumber there, and bridge into each other; only the kind is checked.
    case .number, .bool: return theirs is NSNumber
    case .null: return theirs is NSNull
    case .array(let elements):
        guard let theirs = theirs as? [Any], theirs.count == elements.count else { return false }
        return zip(elements, theirs).allSatisfy(sameContent)
    case .object(let members):
        guard let theirs = theirs as? [String: Any] else { return false }
        // JSONSerialization keeps one value per key: the last, which is what our subscript returns.
        let keys = Set(members.map(\.key))
        return keys.count == theirs.count && keys.allSatisfy { key in
            guard let value = theirs[key], let ourValue = ours[key] else { return false }
            return sameContent(ourValue, value)
        }
    }
}

/// A seeded generator so a fuzz failure reproduces (the JSON suites share it).
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
