import PassgateLiveTestSupport
import Foundation
import PassgateConfig
import PassgateServer
import Testing

/// `audit.maxFiles` and `audit.maxAgeDays` reach the writer that `passgate serve` runs.
@Suite("audit retention wiring")
struct AuditRetentionWiringTests {
    @Test("serve applies audit.maxFiles: rotated files an earlier run left beyond it are deleted at start-up, oldest first")
    func maxFilesReachesTheWriter() async throws {
        let (configuration, directory) = AuditLogWiringTests.audited()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var limited = configuration
        limited.audit.maxFiles = 2
        limited.audit.maxAgeDays = 0
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let earlier = (1...5).map { "audit-20261120T0\($0)0000Z-0001.jsonl" }
        for name in earlier + ["notes.txt"] {
            #expect(FileManager.default.createFile(atPath: "\(directory)/\(name)", contents: Data("{}\n".utf8)))
        }
        try await withRunningPassgate(limited) { passgate in
        }  // the writer's start-up pass runs before it can drain and stop
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        #expect(names == Array(earlier.suffix(2)) + ["audit.jsonl", "notes.txt"], "\(names)")
    }
}
