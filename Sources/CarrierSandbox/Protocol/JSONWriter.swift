import PassgateCore
import Foundation

/// JSON output for the sandbox's own endpoints (carrier replies use CarrierKit's `JSONStringTree`,
/// whose field order matches the carrier's).
enum JSONWriter {
    /// A flat object of strings, keys sorted.
    static func object(_ fields: [String: String]) -> [UInt8] {
        JSONStringTree.object(fields.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }).bytes
    }

    /// Any `Encodable` value, keys sorted.
    static func encode(_ value: some Encodable) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? Array(encoder.encode(value))) ?? Array(#"{"error":"encoding failed"}"#.utf8)
    }
}
