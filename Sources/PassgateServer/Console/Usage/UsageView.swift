import NIOPosix
import PassgateAudit
import PassgateConfig
import PassgateCore

/// The console's usage page: the audit log counted by ``UsageReport`` (the reader `passgate usage`
/// uses, so the two always agree), over a range of Beijing days.
///
/// Bounded: a range is at most ``maxDays`` days, rotated files from before it are skipped by the
/// reader, and the files themselves are bounded by `audit.maxFiles` and `audit.maxFileBytes`. The
/// files are read on NIO's blocking pool, never on an event loop or Swift's cooperative threads.
struct UsageView: Sendable {
    /// A query parameter with what is wrong with it.
    struct Problem: Error, Sendable, Equatable {
        var field: String
        var message: String
    }

    /// The longest range one page (or CSV) counts.
    static let maxDays = 92
    /// Days shown when the page is opened without a range: the last seven, today included.
    static let defaultDays = 7

    let audit: AuditSettings
    let clock: any PassgateClock

    /// The query for `from` and `to` (`YYYY-MM-DD`, inclusive), each defaulting to the last
    /// ``defaultDays`` Beijing days; a problem names the parameter.
    func query(from: String?, to: String?) throws(Problem) -> UsageQuery {
        let zone = UsageDayZone.beijing
        let today = AuditDay(milliseconds: clock.nowMilliseconds(), offsetMilliseconds: zone.offsetMilliseconds)
        let last = try Self.day(to, field: "to") ?? today
        let first = try Self.day(from, field: "from") ?? Self.day(last, adding: -(Self.defaultDays - 1))
        guard first <= last else { throw Problem(field: "from", message: "from (\(first)) is after to (\(last)).") }
        guard Self.days(first, last).count <= Self.maxDays else {
            throw Problem(field: "from", message: "The range \(first) to \(last) is longer than \(Self.maxDays) days; choose a shorter one.")
        }
        return UsageQuery(from: first, to: last, zone: zone)
    }

    /// The report for `query`, read off the event loops.
    func report(_ query: UsageQuery) async throws -> UsageReport {
        let directory = audit.directory
        return try await NIOThreadPool.singleton.runIfActive { try UsageReport.read(directory: directory, query: query) }
    }

    /// Every day of the query's range with its calls (zero where none), for the bar chart.
    static func perDay(_ report: UsageReport) -> [(day: AuditDay, counts: UsageReport.Counts)] {
        var sums: [AuditDay: UsageReport.Counts] = [:]
        for (key, counts) in report.rows {
            let sum = sums[key.day] ?? .init()
            sums[key.day] = .init(calls: sum.calls + counts.calls, billable: sum.billable + counts.billable)
        }
        return days(report.query.from, report.query.to).map { ($0, sums[$0] ?? .init()) }
    }

    /// A parameter as a day; nil when absent or empty.
    static func day(_ text: String?, field: String) throws(Problem) -> AuditDay? {
        guard let text, !text.isEmpty else { return nil }
        guard let day = AuditDay(text) else { throw Problem(field: field, message: "\(field) must be a date YYYY-MM-DD, got '\(text.prefix(40))'.") }
        return day
    }

    /// `day` moved by `count` days.
    static func day(_ day: AuditDay, adding count: Int) -> AuditDay {
        AuditDay(milliseconds: day.startMilliseconds(offsetMilliseconds: 0) + Int64(count) * 86_400_000, offsetMilliseconds: 0)
    }

    /// The days from `first` through `last`; empty when `last` is before `first`. Stops after
    /// one more than ``maxDays`` so an absurd range costs nothing.
    static func days(_ first: AuditDay, _ last: AuditDay) -> [AuditDay] {
        var days: [AuditDay] = []
        var day = first
        while day <= last, days.count <= maxDays {
            days.append(day)
            day = Self.day(day, adding: 1)
        }
        return days
    }
}
