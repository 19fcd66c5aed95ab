import Foundation
import Testing

/// Checks a decoded JSON answer against a schema of `openapi.yaml`'s `components.schemas`: the
/// required keys are there, every key is documented, and strings, booleans, enums and patterns
/// hold. The subset of JSON Schema the document uses, nothing more.
enum OpenAPISchema {
    struct Mismatch: Error, CustomStringConvertible {
        var path: String
        var problem: String
        var description: String { "\(path): \(problem)" }
    }

    static func schemas() throws -> [String: Any] {
        try #require((try OpenAPIContractTests.document()["components"] as? [String: Any])?["schemas"] as? [String: Any])
    }

    /// The documented properties of an object schema.
    static func properties(of name: String) throws -> [String: Any] {
        try #require((try schemas()[name] as? [String: Any])?["properties"] as? [String: Any], "no object schema \(name)")
    }

    /// Throws the first place `value` departs from schema `name`; `skippingEnumOf` names
    /// properties whose enum a test's own provider may leave (`provider`).
    static func check(_ value: Any, against name: String, skippingEnumOf skipped: Set<String> = []) throws {
        let all = try schemas()
        try check(value, all[name] as? [String: Any] ?? [:], path: name, all, skipped)
    }

    private static func check(_ value: Any, _ schema: [String: Any], path: String, _ all: [String: Any], _ skipped: Set<String>) throws {
        if let reference = schema["$ref"] as? String {
            let name = String(reference.split(separator: "/").last ?? "")
            guard let target = all[name] as? [String: Any] else { throw Mismatch(path: path, problem: "unresolved \(reference)") }
            return try check(value, target, path: path, all, skipped)
        }
        switch schema["type"] as? String {
        case "object":
            guard let object = value as? [String: Any] else { throw Mismatch(path: path, problem: "not an object") }
            let properties = schema["properties"] as? [String: Any] ?? [:]
            for key in schema["required"] as? [String] ?? [] where object[key] == nil {
                throw Mismatch(path: path, problem: "required '\(key)' missing")
            }
            for (key, member) in object {
                guard let property = properties[key] as? [String: Any] else {
                    if schema["additionalProperties"] != nil { continue }
                    throw Mismatch(path: path, problem: "'\(key)' is not documented")
                }
                try check(member, property, path: "\(path).\(key)", all, skipped)
            }
        case "string":
            guard let string = value as? String else { throw Mismatch(path: path, problem: "not a string") }
            let key = String(path.split(separator: ".").last ?? "")
            if let values = schema["enum"] as? [String], !skipped.contains(key), !values.contains(string) {
                throw Mismatch(path: path, problem: "'\(string)' is not one of \(values)")
            }
            if let pattern = schema["pattern"] as? String, string.range(of: pattern, options: .regularExpression) == nil {
                throw Mismatch(path: path, problem: "does not match \(pattern)")
            }
        case "boolean":
            guard value as? Bool != nil else { throw Mismatch(path: path, problem: "not a boolean") }
        default:
            break
        }
    }
}
