import Foundation

/// A parsed JSON document, kept as typed as the wire: the carrier rules depend on whether a
/// value was a string, a number or `null` (non-strings are 103211 / 102).
enum JSONValue: Sendable, Equatable, Decodable {
    case string(String)
    case number(Double)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        // Strings first: nearly every value the sandbox sees is one.
        if let text = try? container.decode(String.self) {
            self = .string(text)
        } else if container.decodeNil() {
            self = .null
        } else if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let object = try? container.decode([String: JSONValue].self) {
            self = .object(object)
        } else {
            self = .array(try container.decode([JSONValue].self))
        }
    }

    /// Parses `bytes` as one JSON value; `nil` if it is not JSON.
    static func parse(_ bytes: [UInt8]) -> JSONValue? {
        guard !bytes.isEmpty else { return nil }
        return try? JSONDecoder().decode(JSONValue.self, from: Data(bytes))
    }

    var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    var object: [String: JSONValue]? {
        if case .object(let fields) = self { return fields }
        return nil
    }

    /// The value as an exact integer, if it is a number without a fraction.
    var integer: Int? {
        guard case .number(let value) = self, value.rounded() == value, abs(value) < 1e15 else { return nil }
        return Int(value)
    }

    /// A short name of the value's type, for messages.
    var typeName: String {
        switch self {
        case .string: "string"
        case .number: "number"
        case .bool: "boolean"
        case .null: "null"
        case .array: "array"
        case .object: "object"
        }
    }
}
