#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CoreMetrics
import Logging

/// Which rotated audit files to delete, and deleting them: the files beyond the newest
/// `maxFiles`, and those rotated more than `maxAgeDays` days ago. 0 switches a limit off.
///
/// A file's age is the rotation time in its name, not its mtime: the name is written once by the
/// writer, while an mtime changes with a `cp` without `-p`, a restore from backup or a `touch`,
/// and the name is also what `passgate usage` goes by. Only names `AuditFileNaming` recognizes for
/// this path are candidates, and removal is `unlink(2)`, which never removes a directory.
///
/// Runs on the writer thread only (at start-up, after each rotation, and hourly while an age
/// limit is set): it lists and unlinks, which block on the disk.
struct AuditRetention: Sendable {
    let naming: AuditFileNaming
    let maxFiles: Int
    let maxAgeDays: Int

    /// Why a file goes.
    enum Reason: String, Sendable { case maxFiles, maxAgeDays }

    /// What started a pass, for the logs.
    enum Trigger: String, Sendable { case startUp = "start-up", rotation, ageCheck = "age check" }

    init(path: String, maxFiles: Int, maxAgeDays: Int) {
        naming = AuditFileNaming(path: path)
        self.maxFiles = maxFiles
        self.maxAgeDays = maxAgeDays
    }

    var isLimited: Bool { maxFiles > 0 || maxAgeDays > 0 }

    /// Of the directory entries `names`, the rotated files to delete at `nowMilliseconds`, oldest
    /// first. Files stamped in the future (the clock was stepped back) are never too old.
    func expired(_ names: [String], nowMilliseconds: Int64) -> [(file: AuditFileNaming.Rotated, reason: Reason)] {
        let rotated = names.compactMap(naming.rotated).sorted()
        let excess = maxFiles > 0 ? max(0, rotated.count - maxFiles) : 0
        let (age, overflow) = Int64(maxAgeDays).multipliedReportingOverflow(by: AuditTime.millisecondsPerDay)
        let cutoff = maxAgeDays > 0 && !overflow ? nowMilliseconds - age : Int64.min
        return rotated.enumerated().compactMap { index, file in
            if index < excess { return (file, .maxFiles) }
            if file.milliseconds < cutoff { return (file, .maxAgeDays) }
            return nil
        }
    }

    /// One pass: lists the directory, unlinks what `expired` names, oldest first. Every deletion
    /// is logged and counted; every failure is logged with the path and the system's reason,
    /// counted, and skipped (its file keeps its place: no younger file is deleted instead).
    func enforce(nowMilliseconds: Int64, trigger: Trigger, logger: Logger, metrics: AuditMetrics) {
        guard isLimited else { return }
        let names: [String]
        do {
            names = try AuditFile.names(in: naming.directory)
        } catch {
            metrics.retentionErrors.increment()
            logger.error("audit retention cannot list the audit directory; no rotated file was deleted",
                         metadata: ["path": "\(naming.directory)", "error": "\(error.message)", "trigger": "\(trigger.rawValue)"])
            return
        }
        for (file, reason) in expired(names, nowMilliseconds: nowMilliseconds) {
            let path = naming.path(of: file.name)
            if unlink(path) == 0 {
                metrics.filesDeleted.increment()
                logger.info("audit file deleted by retention", metadata: [
                    "path": "\(path)", "reason": "\(Self.describe(reason, maxFiles: maxFiles, maxAgeDays: maxAgeDays))",
                    "trigger": "\(trigger.rawValue)",
                ])
            } else if errno != ENOENT {  // ENOENT: already gone (an operator, an archiver): nothing to do
                let code = errno
                metrics.retentionErrors.increment()
                var hint = ""
                if code == EISDIR || code == EPERM { hint = " (not a file the writer made: move it out of the audit directory)" }
                logger.error("audit retention cannot delete a rotated audit file; writing goes on", metadata: [
                    "path": "\(path)", "error": "\(String(cString: strerror(code)))\(hint)", "errno": "\(code)",
                    "reason": "\(Self.describe(reason, maxFiles: maxFiles, maxAgeDays: maxAgeDays))", "trigger": "\(trigger.rawValue)",
                ])
            }
        }
    }

    private static func describe(_ reason: Reason, maxFiles: Int, maxAgeDays: Int) -> String {
        switch reason {
        case .maxFiles: "more than audit.maxFiles (\(maxFiles)) rotated files"
        case .maxAgeDays: "rotated more than audit.maxAgeDays (\(maxAgeDays)) days ago"
        }
    }
}
