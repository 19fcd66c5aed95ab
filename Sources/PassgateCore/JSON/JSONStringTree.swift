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

    /// Compact UTF-8 JSON.
    public var bytes: [UInt8] {
        var output = [UInt8]()
        output.reserveCapacity(512)
        write(into: &output)
        return output
    }

    /// The string value of `key` in this object (one level).
    public subscript(key: String) -> String? {
        guard case .object(let fields) = self, let value = fields.first(where: { $0.0 == key })?.1,
            case .string(let text) = value
        else { return nil }
        return text
    }

    private func write(into output: inout [UInt8]) {
        switch self {
        case .string(let text):
            JSONText.appendQuoted(text, to: &output)
        case .object(let fields):
            output.append(UInt8(ascii: "{"))
            for (index, (key, value)) in fields.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                JSONText.appendQuoted(key, to: &output)
                output.append(UInt8(ascii: ":"))
                value.write(into: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }
}
