import ArgumentParser
import Foundation
import PassgateAudit
import PassgateConfig

/// `passgate usage`: calls and billable calls from the audit log, to reconcile with the carrier's bill.
struct UsageCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "usage",
        abstract: "Count carrier calls and billable calls per day and app from the audit log.",
        discussion: """
            Reads every *.jsonl file (the current audit file and its rotated siblings) in the audit directory: \
            audit.path's directory from --config (default config/passgate.yaml; only its audit: section is read), \
            or --audit-dir. Days are Beijing dates (UTC+8), as CMCC bills; --utc groups by UTC day instead. \
            Malformed lines (e.g. one torn by a crash) are counted and listed on stderr, not fatal. \
            Exit codes: 0 success, 64 bad arguments, 66 audit directory or file unreadable, 78 invalid configuration.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case table, csv
    }

    @Option(help: "First day to count, YYYY-MM-DD (inclusive).")
    var from: String

    @Option(help: "Last day to count, YYYY-MM-DD (inclusive).")
    var to: String

    @Option(help: "Count only this appId.")
    var app: String?

    @Option(help: "Output: table (for people) or csv (header row, one row per day, app, provider and operation).")
    var format: Format = .table

    @Flag(help: "Group by UTC day instead of Beijing day.")
    var utc = false

    @Option(name: .customLong("config"), help: "Configuration file whose audit.path locates the log (default: \(ConfigurationLoader.defaultPath)).")
    var configPath: String?

    @Option(name: .customLong("audit-dir"), help: "Directory holding the audit files (instead of --config).")
    var auditDirectory: String?

    func run() throws {
        try reportingErrors {
            let query = try makeQuery()
            let directory = try locateDirectory()
            let report: UsageReport
            do {
                report = try UsageReport.read(directory: directory, query: query)
            } catch let error as UsageReportError {
                throw CLIError(.noInput, error.message)
            }
            print(format == .csv ? report.csv() : report.table(), terminator: "")
            FileHandle.standardError.write(Data(notes(report, directory: directory).utf8))
        }
    }

    func makeQuery() throws -> UsageQuery {
        guard let first = AuditDay(from) else { throw CLIError(.usage, "--from must be a date YYYY-MM-DD, got '\(from)'") }
        guard let last = AuditDay(to) else { throw CLIError(.usage, "--to must be a date YYYY-MM-DD, got '\(to)'") }
        guard first <= last else { throw CLIError(.usage, "--from \(first) is after --to \(last)") }
        if let app, app.isEmpty || app.contains(where: \.isWhitespace) {
            throw CLIError(.usage, "--app must be an appId without whitespace, got '\(app)'")
        }
        return UsageQuery(from: first, to: last, appId: app, zone: utc ? .utc : .beijing)
    }

    /// `--audit-dir`, or the directory of `audit.path` in the configuration.
    func locateDirectory() throws -> String {
        if let auditDirectory {
            guard configPath == nil else { throw CLIError(.usage, "give either --config or --audit-dir, not both") }
            return auditDirectory
        }
        let path = configPath ?? ConfigurationLoader.defaultPath
        do {
            let settings = try ConfigurationLoader.passgate().loadAuditSettings(path: path)
            if !settings.enabled {
                FileHandle.standardError.write(Data("note: audit.enabled is false in \(path): calls are not being logged now\n".utf8))
            }
            return settings.directory
        } catch {
            var text = ConfigOptions.report(error, path: path)
            if configPath == nil { text += "  (pass --config PATH or --audit-dir DIR)\n" }
            FileHandle.standardError.write(Data(text.utf8))
            throw ExitCode(78)
        }
    }

    /// What stderr should say besides the numbers: malformed lines, nothing found.
    func notes(_ report: UsageReport, directory: String) -> String {
        var text = ""
        if report.filesRead.isEmpty && report.filesSkipped.isEmpty {
            text += "note: no audit files (*.jsonl) in \(directory)\n"
        }
        if report.malformedCount > 0 {
            text += "warning: \(report.malformedCount) malformed line\(report.malformedCount == 1 ? "" : "s") skipped (not counted):\n"
            for line in report.malformedExamples { text += "  \(line.file):\(line.line): \(line.reason)\n" }
            if report.malformedCount > report.malformedExamples.count {
                text += "  … and \(report.malformedCount - report.malformedExamples.count) more\n"
            }
        }
        return text
    }
}
