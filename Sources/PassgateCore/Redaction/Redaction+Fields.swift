extension Redaction {
    /// One pass over bytes that replaces the values of sensitive fields with `<redacted>`. It does
    /// not need valid input: a truncated reply (`{"msisdn":"1380013`) is exactly the case that
    /// must not leak, so an unterminated value is redacted to the end.
    struct FieldRedactor {
        static let placeholder = Array("<redacted>".utf8)

        let bytes: [UInt8]
        var index = 0
        var output: [UInt8] = []

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
            output.reserveCapacity(bytes.count)
        }

        mutating func run() -> [UInt8] {
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    jsonString()
                } else if isNameByte(byte), index == 0 || !isNameByte(bytes[index - 1]) {
                    formName()
                } else {
                    output.append(byte)
                    index += 1
                }
            }
            return output
        }

        /// A quoted string; when it is a key (followed by `:`) of a sensitive name, its value is replaced.
        private mutating func jsonString() {
            let start = index
            let end = stringEnd(from: start)
            output.append(contentsOf: bytes[start..<end])
            index = end
            guard end > start + 1, Redaction.isSensitive(bytes[(start + 1)..<(end - 1)]) else { return }
            var cursor = end
            while cursor < bytes.count, isSpace(bytes[cursor]) { cursor += 1 }
            guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: ":") else { return }
            cursor += 1
            while cursor < bytes.count, isSpace(bytes[cursor]) { cursor += 1 }
            output.append(contentsOf: bytes[end..<cursor])
            index = skipValue(from: cursor, quoted: true)
        }

        /// A bare name; when followed by `=` and sensitive (`token=...&`), its value is replaced.
        private mutating func formName() {
            var end = index
            while end < bytes.count, isNameByte(bytes[end]) { end += 1 }
            output.append(contentsOf: bytes[index..<end])
            let name = bytes[index..<end]
            index = end
            guard end < bytes.count, bytes[end] == UInt8(ascii: "="), Redaction.isSensitive(name) else { return }
            output.append(UInt8(ascii: "="))
            index = skipValue(from: end + 1, quoted: false)
        }

        /// Skips one value starting at `start` and writes the placeholder in its place. A JSON
        /// string ends at its closing quote; anything else at a delimiter.
        private mutating func skipValue(from start: Int, quoted: Bool) -> Int {
            guard start < bytes.count else {
                output.append(contentsOf: Self.placeholder)
                return start
            }
            if quoted, bytes[start] == UInt8(ascii: "\"") {
                output.append(UInt8(ascii: "\""))
                output.append(contentsOf: Self.placeholder)
                let end = stringEnd(from: start)
                if end > start + 1, bytes[end - 1] == UInt8(ascii: "\"") { output.append(UInt8(ascii: "\"")) }
                return end
            }
            var end = start
            let delimiters: [UInt8] = quoted ? Array(",}] \t\r\n".utf8) : Array("&;, \t\r\n\"<".utf8)
            while end < bytes.count, !delimiters.contains(bytes[end]) { end += 1 }
            output.append(contentsOf: Self.placeholder)
            return end
        }

        /// The index after the closing quote of the string opening at `start`, or the end of input.
        private func stringEnd(from start: Int) -> Int {
            var cursor = start + 1
            while cursor < bytes.count {
                switch bytes[cursor] {
                case UInt8(ascii: "\\"): cursor += 2
                case UInt8(ascii: "\""): return cursor + 1
                default: cursor += 1
                }
            }
            return bytes.count
        }

        private func isNameByte(_ byte: UInt8) -> Bool {
            (65...90).contains(byte) || (97...122).contains(byte) || (48...57).contains(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
        }

        private func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
    }
}
