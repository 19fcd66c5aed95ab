import PassgateCore
import Foundation
import Logging
import PassgateAudit
import Synchronization
import Testing

/// Temporary directories, records and what the writer left on disk.
enum AuditFixtures {
    /// A fresh directory under the system's temporary directory.
    static func temporaryDirectory() throws -> String {
        var template = Array("\(NSTemporaryDirectory())/passgate-audit-XXXXXX".utf8CString)
        guard let created = mkdtemp(&template) else { throw AuditTestFailure("mkdtemp failed") }
        return URL(fileURLWithPath: String(cString: created)).standardizedFileURL.path
    }

    static func remove(_ path: String) {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// A record with plausible values; `index` makes msgid and requestId unique.
    static func record(
        _ index: Int, at milliseconds: Int64 = 1_795_170_900_000, appId: String = "300011111111", operation: String = "phone_number",
        billable: Bool = true
    ) -> AuditRecord {
        AuditRecord(
            timeMilliseconds: milliseconds, requestId: "req-\(index)", client: "shop-backend", appId: appId, provider: "cmcc",
            operation: operation, msgid: String(format: "%032x", index), carrierTaskId: billable ? "task-\(index)" : nil,
            rawCode: billable ? "103000" : "104201", normalizedCode: billable ? "ok" : "token_invalid", billable: billable,
            latencyMs: 12.5, host: "www.cmpassport.com"
        )!  // the fixtures' operations are Passgate's own
    }

    /// The `*.jsonl` files of `directory`, in name order (rotated ones first, oldest first).
    static func files(_ directory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".jsonl") }.sorted().map { "\(directory)/\($0)" }
    }

    /// Every line of every audit file, in file-name order.
    static func lines(_ directory: String) throws -> [String] {
        try files(directory).flatMap { path in
            try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        }
    }

    /// A line parsed as a JSON object.
    static func object(_ line: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    static func permissions(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    static func size(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.size] as? NSNumber)?.intValue ?? -1
    }
}

struct AuditTestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A log handler that keeps every message, so tests can see what an operator would see.
struct CapturingLogHandler: LogHandler {
    final class Store: Sendable {
        private let entries = Mutex<[(Logger.Level, String)]>([])

        func append(_ level: Logger.Level, _ text: String) { entries.withLock { $0.append((level, text)) } }

        var all: [(level: Logger.Level, text: String)] { entries.withLock { $0.map { ($0.0, $0.1) } } }

        func contains(_ level: Logger.Level, _ fragment: String) -> Bool {
            all.contains { $0.level == level && $0.text.contains(fragment) }
        }
    }

    let store: Store
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        let details = merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        store.append(event.level, "\(event.message) \(details)")
    }

    /// A logger writing into a fresh store.
    static func logger() -> (Logger, Store) {
        let store = Store()
        return (Logger(label: "audit-test") { _ in CapturingLogHandler(store: store) }, store)
    }
}
