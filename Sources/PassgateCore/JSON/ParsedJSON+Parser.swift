/// A single-use recursive-descent parser. Every read is checked against `bytes.count` by hand
/// because `UnsafeBufferPointer` does not bounds-check in release builds.
struct JSONParser {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    /// Reused across strings, so only strings with escapes allocate (once) for a decoded copy.
    var scratch: [UInt8] = []

    /// The byte at `index`, or nil at the end of input.
    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    /// Parses a whole document. Returns a Result because `withContiguousStorageIfAvailable`
    /// only rethrows untyped errors.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<ParsedJSON, JSONSyntaxError> {
        var parser = JSONParser(bytes: bytes)
        return Result { () throws(JSONSyntaxError) in
            parser.skipWhitespace()
            guard parser.index < bytes.count else { throw parser.failure("empty input") }
            let value = try parser.parseValue(depth: 0)
            guard parser.index == bytes.count else { throw parser.failure("trailing characters after the value") }
            return value
        }
    }

    /// Parses one value and the whitespace around it.
    private mutating func parseValue(depth: Int) throws(JSONSyntaxError) -> ParsedJSON {
        skipWhitespace()
        defer { skipWhitespace() }
        guard let byte = current else { throw failure("unexpected end of input") }
        switch byte {
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "["), UInt8(ascii: "{"):
            guard depth < ParsedJSON.maximumDepth else { throw failure("nesting deeper than \(ParsedJSON.maximumDepth) levels") }
            return byte == UInt8(ascii: "[") ? try parseArray(depth: depth + 1) : try parseObject(depth: depth + 1)
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw unexpectedByte()
        }
    }

    private mutating func parseArray(depth: Int) throws(JSONSyntaxError) -> ParsedJSON {
        index += 1
        var elements: [ParsedJSON] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") { index += 1; return .array(elements) }
        elements.reserveCapacity(8)
        repeat {
            elements.append(try parseValue(depth: depth))
        } while try !consumeSeparator(closing: UInt8(ascii: "]"))
        return .array(elements)
    }

    private mutating func parseObject(depth: Int) throws(JSONSyntaxError) -> ParsedJSON {
        index += 1
        var members: [(key: String, value: ParsedJSON)] = []
        skipWhitespace()
        if current == UInt8(ascii: "}") { index += 1; return .object(members) }
        // Request and reply objects have 3–10 members: one allocation instead of growing 1, 2, 4, 8.
        members.reserveCapacity(8)
        repeat {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw unexpectedByte() }
            let key = try parseString()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw unexpectedByte() }
            index += 1
            members.append((key: key, value: try parseValue(depth: depth)))
        } while try !consumeSeparator(closing: UInt8(ascii: "}"))
        return .object(members)
    }

    /// Consumes `,` (returning false: another element follows) or `closing` (returning true).
    private mutating func consumeSeparator(closing: UInt8) throws(JSONSyntaxError) -> Bool {
        guard let byte = current, byte == UInt8(ascii: ",") || byte == closing else { throw unexpectedByte() }
        index += 1
        return byte == closing
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONSyntaxError) {
        for byte in UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount) {
            guard current == byte else { throw unexpectedByte() }
            index += 1
        }
    }

    /// Returns the number's text; the grammar is `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    private mutating func parseNumber() throws(JSONSyntaxError) -> String {
        let start = index
        if current == UInt8(ascii: "-") { index += 1 }
        if current != UInt8(ascii: "0") {
            try consumeDigits()
        } else if index + 1 < bytes.count, isDigit(bytes[index + 1]) {
            throw failure("invalid number", at: index + 1)  // a leading zero, "01": worth naming as such
        } else {
            index += 1
        }
        if current == UInt8(ascii: ".") { index += 1; try consumeDigits() }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            try consumeDigits()
        }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    }

    /// Consumes one or more digits; a missing digit is what makes "-", "1.", "1e" invalid.
    private mutating func consumeDigits() throws(JSONSyntaxError) {
        guard let first = current, isDigit(first) else { throw failure("invalid number") }
        repeat { index += 1 } while index < bytes.count && isDigit(bytes[index])
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
    }

    /// Decodes the string whose opening quote is at `index`. A string without escapes becomes a
    /// String straight from the input; otherwise raw runs between escapes are copied in bulk.
    private mutating func parseString() throws(JSONSyntaxError) -> String {
        let quote = index
        index += 1
        var runStart = index
        var escaped = false
        var rawBits: UInt8 = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                let run = UnsafeBufferPointer(rebasing: bytes[runStart..<index])
                index += 1
                guard escaped else { return try makeString(run, rawBits: rawBits, source: quote + 1..<index - 1) }
                scratch.append(contentsOf: run)
                return try makeString(scratch, rawBits: rawBits, source: quote + 1..<index - 1)
            case UInt8(ascii: "\\"):
                if !escaped { scratch.removeAll(keepingCapacity: true); escaped = true }
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                try decodeEscape()
                runStart = index
            case 0..<0x20: throw failure("control character in string")
            default: rawBits |= byte; index += 1
            }
        }
        throw failure("unterminated string", at: quote)
    }

    /// Escapes only add whole, valid scalars, so decoded bytes are valid UTF-8 exactly when the raw
    /// `source` bytes are. That lets all-ASCII raw bytes (`rawBits` < 0x80, the usual case) skip the
    /// slow, generic `String(validating:)`, and lets an error point into the input.
    private func makeString(_ utf8: some Collection<UInt8>, rawBits: UInt8, source: Range<Int>) throws(JSONSyntaxError) -> String {
        if rawBits < 0x80 { return String(decoding: utf8, as: UTF8.self) }
        if let text = String(validating: utf8, as: UTF8.self) { return text }
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = UnsafeBufferPointer(rebasing: bytes[source]).makeIterator()
        var offset = source.lowerBound
        while case .valid(let scalar) = parser.parseScalar(from: &iterator) { offset += scalar.count }
        throw failure("invalid UTF-8", at: offset)
    }

    /// Appends the decoded escape whose backslash is at `index`.
    private mutating func decodeEscape() throws(JSONSyntaxError) {
        let backslash = index
        index += 1
        // A trailing backslash is left for the caller to report as an unterminated string.
        guard let byte = current else { return }
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(byte)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            var value = try hex4(escapeAt: backslash)
            // A high surrogate pairs only with an escaped low surrogate right after it; anything else
            // leaves `value` a surrogate, which is no scalar and is rejected below (as is a lone low one).
            if (0xD800..<0xDC00).contains(value), index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
                index += 2
                let low = try hex4(escapeAt: index - 2)
                if (0xDC00..<0xE000).contains(low) { value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00) }
            }
            guard let scalar = Unicode.Scalar(value) else { throw failure("unpaired surrogate in \\u escape", at: backslash) }
            UTF8.encode(scalar) { scratch.append($0) }
        default:
            let shown = (0x21...0x7E).contains(byte) ? "'\\\(Character(Unicode.Scalar(byte)))'" : "'\\' followed by \(hex(byte))"
            throw failure("invalid escape \(shown)", at: backslash)
        }
    }

    private mutating func hex4(escapeAt backslash: Int) throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            switch current {
            case let byte? where isDigit(byte): value = value << 4 | UInt32(byte - UInt8(ascii: "0"))
            case let byte? where (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte): value = value << 4 | UInt32(byte - UInt8(ascii: "a") + 10)
            case let byte? where (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte): value = value << 4 | UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw failure("invalid \\u escape", at: backslash)
            }
            index += 1
        }
        return value
    }

    private func failure(_ problem: String, at offset: Int? = nil) -> JSONSyntaxError { JSONSyntaxError(offset: offset ?? index, problem: problem) }

    /// Names the byte at `index`: printable ASCII quoted, anything else (a BOM, a control byte) in hex.
    private func unexpectedByte() -> JSONSyntaxError {
        guard let byte = current else { return failure("unexpected end of input") }
        let shown = (0x21...0x7E).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : hex(byte)
        return failure("unexpected character \(shown)")
    }

    private func hex(_ byte: UInt8) -> String { (byte < 0x10 ? "0x0" : "0x") + String(byte, radix: 16, uppercase: true) }
}
