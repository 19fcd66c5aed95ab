import Foundation
import PassgateAudit
import Synchronization

extension AuditFixtures {
    /// 2026-11-20T10:35:00Z, the fixture records' time.
    static let now: Int64 = 1_795_170_900_000
    static let hour: Int64 = 3_600_000
    static let day: Int64 = 86_400_000

    /// The name the writer gives `audit.jsonl` when rotating it at `milliseconds`.
    static func rotatedName(at milliseconds: Int64, sequence: Int = 1, stem: String = "audit") -> String {
        let stamp = AuditTime.iso8601(milliseconds: milliseconds).prefix(19).filter { $0 != "-" && $0 != ":" } + "Z"
        return "\(stem)-\(stamp)-\(String(format: "%04d", sequence)).jsonl"
    }

    /// A rotated file holding one record, with `modified` as its mtime when given.
    @discardableResult
    static func placeRotated(_ directory: String, at milliseconds: Int64, sequence: Int = 1, modified: Int64? = nil) throws -> String {
        let path = "\(directory)/\(rotatedName(at: milliseconds, sequence: sequence))"
        try Data(record(sequence, at: milliseconds).jsonLine()).write(to: URL(fileURLWithPath: path))
        if let modified {
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: Double(modified) / 1000)], ofItemAtPath: path)
        }
        return path
    }

    /// The names in `directory`, sorted.
    static func names(_ directory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
    }

    /// The sequence number of a rotated file's name (`audit-…-0012.jsonl` is 12).
    static func sequence(_ name: String) -> Int? {
        name.dropLast(".jsonl".count).split(separator: "-").last.flatMap { Int($0) }
    }
}
