import Foundation

/// The textual forms a key arrives in: PEM armor, or the bare base64 DER that carrier
/// consoles show (often wrapped over several lines, sometimes with stray whitespace).
enum KeyText {
    case pem(label: String, der: [UInt8])
    case der([UInt8])

    /// Parses `text` as PEM (first block) or as bare base64; `reason` explains a failure.
    static func parse(_ text: String, kind: String) throws -> KeyText {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else {
            throw OpenSSLError(operation: .keyLoad, reason: "the \(kind) is empty")
        }
        // `openssl pkcs12 -nodes` writes "Bag Attributes" lines before the armor: skip any preamble.
        if let begin = trimmed.range(of: "-----BEGIN ") {
            return try parsePEM(String(trimmed[begin.lowerBound...]), kind: kind)
        }
        guard let der = base64(trimmed) else {
            throw OpenSSLError(
                operation: .keyLoad,
                reason: "the \(kind) is neither PEM (-----BEGIN …-----) nor base64 DER"
            )
        }
        return .der(der)
    }

    private static func parsePEM(_ text: String, kind: String) throws -> KeyText {
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        guard let first = lines.first, first.hasSuffix("-----") else {
            throw OpenSSLError(operation: .keyLoad, reason: "the \(kind) has a malformed PEM header line")
        }
        let label = String(first.dropFirst("-----BEGIN ".count).dropLast(5))
        guard let end = lines.firstIndex(of: "-----END \(label)-----") else {
            throw OpenSSLError(operation: .keyLoad, reason: "the \(kind) PEM has no '-----END \(label)-----' line (truncated?)")
        }
        let body = lines[1..<end]
        if label.contains("ENCRYPTED") || body.contains(where: { $0.hasPrefix("Proc-Type:") }) {
            throw OpenSSLError(
                operation: .keyLoad,
                reason: "the \(kind) is passphrase-encrypted; export it unencrypted (openssl pkey -in KEY -out PLAIN.pem) and protect the file instead"
            )
        }
        guard let der = base64(body.joined()) else {
            throw OpenSSLError(operation: .keyLoad, reason: "the \(kind) PEM body is not valid base64")
        }
        return .pem(label: label, der: der)
    }

    private static func base64(_ text: String) -> [UInt8]? {
        let compact = text.filter { !$0.isWhitespace }
        guard !compact.isEmpty, let data = Data(base64Encoded: compact) else { return nil }
        return [UInt8](data)
    }
}
