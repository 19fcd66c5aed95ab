/// Writes flat or nested JSON objects whose values are all strings, in a fixed field order.
///
/// CMCC needs every value to be a JSON string (a number or null is 103211), and a stable field
/// order makes `passgate sign` output comparable with the carrier's examples.
public indirect enum JSONStringTree: Sendable, Equatable {
    case string(String)
    case object([(String, JSONStringTree)])

    public static func == (lhs: JSONStringTree, rhs: JSONStringTree) -> Bool {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)): a == b
        case (.object(let a), .object(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    /// Compact UTF-8 JSON, written by the one JSON writer.
    public var bytes: [UInt8] {
        switch self {
        case .string(let text):
            var output: [UInt8] = []
            JSONText.appendQuoted(text, to: &output)
            return output
        case .object:
            var writer = writer(capacity: 512)
            return writer.finish()
        }
    }

    /// The string value of `key` in this object (one level).
    public subscript(key: String) -> String? {
        guard case .object(let fields) = self, let value = fields.first(where: { $0.0 == key })?.1,
            case .string(let text) = value
        else { return nil }
        return text
    }

    /// This object's members in order, nested objects included.
    private func writer(capacity: Int) -> JSONObjectWriter {
        var writer = JSONObjectWriter(capacity: capacity)
        guard case .object(let fields) = self else { return writer }
        for (key, value) in fields {
            switch value {
            case .string(let text): writer.add(key, text)
            case .object: writer.add(key, object: value.writer(capacity: 128))
            }
        }
        return writer
    }
}
