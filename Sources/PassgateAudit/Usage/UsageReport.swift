/// Calls and billable calls from the audit log, per day, app, provider and operation: what
/// `passgate usage` prints to reconcile with the carrier's bill.
///
/// Days are Beijing dates (UTC+8, no daylight saving) by default because CMCC bills by Beijing
/// day: a call at 2026-11-20T16:30Z counts on 2026-11-21. `UsageDayZone.utc` groups by UTC day.
public struct UsageReport: Sendable {
    /// One group of calls.
    public struct Key: Sendable, Hashable, Comparable {
        public var day: AuditDay
        public var appId: String
        public var provider: String
        public var operation: String

        public static func < (lhs: Key, rhs: Key) -> Bool {
            (lhs.day, lhs.appId, lhs.provider, lhs.operation) < (rhs.day, rhs.appId, rhs.provider, rhs.operation)
        }
    }

    /// Calls and how many of them the carrier bills.
    public struct Counts: Sendable, Equatable {
        public var calls = 0
        public var billable = 0
        public var nonBillable: Int { calls - billable }

        public init(calls: Int = 0, billable: Int = 0) {
            self.calls = calls
            self.billable = billable
        }

        mutating func add(billable isBillable: Bool) {
            calls += 1
            if isBillable { billable += 1 }
        }
    }

    /// A line that is not an audit record, e.g. one torn by a crash.
    public struct MalformedLine: Sendable, Equatable {
        public var file: String
        /// 1-based.
        public var line: Int
        public var reason: String
    }

    public let query: UsageQuery
    /// Counts per group, in key order (day, app, provider, operation).
    public var rows: [(key: Key, counts: Counts)] { groups.sorted { $0.key < $1.key }.map { ($0.key, $0.value) } }
    /// Everything in range (and for the app, if one was asked for).
    public private(set) var total = Counts()
    /// Audit files read, in name order (rotated ones first, oldest first).
    public internal(set) var filesRead: [String] = []
    /// Rotated files skipped because they were rotated more than a day before the range starts.
    public internal(set) var filesSkipped: [String] = []
    /// Well-formed records seen, in range or not.
    public private(set) var recordsRead = 0
    /// Lines that are not records; the first `malformedExamplesLimit` are kept in `malformedExamples`.
    public private(set) var malformedCount = 0
    public private(set) var malformedExamples: [MalformedLine] = []
    static let malformedExamplesLimit = 20

    private var groups: [Key: Counts] = [:]

    /// An empty report for `query`; `add` records to it, or use `read(directory:query:)`.
    public init(query: UsageQuery) {
        self.query = query
    }

    /// Counts `record` when it falls in the query's days (and app).
    public mutating func add(_ record: AuditRecord) {
        recordsRead += 1
        guard query.contains(record) else { return }
        let day = AuditDay(milliseconds: record.timeMilliseconds, offsetMilliseconds: query.zone.offsetMilliseconds)
        groups[Key(day: day, appId: record.appId, provider: record.provider, operation: record.operation), default: Counts()].add(billable: record.billable)
        total.add(billable: record.billable)
    }

    mutating func addMalformed(file: String, line: Int, reason: String) {
        malformedCount += 1
        if malformedExamples.count < Self.malformedExamplesLimit {
            malformedExamples.append(MalformedLine(file: file, line: line, reason: reason))
        }
    }

    /// Totals per app and day, summed over providers and operations.
    public var perAppAndDay: [(day: AuditDay, appId: String, counts: Counts)] {
        var sums: [Key: Counts] = [:]
        for (key, counts) in groups {
            let folded = Key(day: key.day, appId: key.appId, provider: "", operation: "")
            sums[folded, default: Counts()].calls += counts.calls
            sums[folded, default: Counts()].billable += counts.billable
        }
        return sums.sorted { $0.key < $1.key }.map { ($0.key.day, $0.key.appId, $0.value) }
    }
}

/// Which calendar the report's days follow.
public enum UsageDayZone: String, Sendable {
    /// UTC+8 all year: the carrier's billing day.
    case beijing
    case utc

    public var offsetMilliseconds: Int64 {
        switch self {
        case .beijing: 8 * 3_600_000
        case .utc: 0
        }
    }

    /// For headings: `Beijing days (UTC+8)` or `UTC days`.
    public var label: String {
        switch self {
        case .beijing: "Beijing days (UTC+8)"
        case .utc: "UTC days"
        }
    }
}

/// Which records a report counts: days `from` through `to` inclusive, optionally one app.
public struct UsageQuery: Sendable, Equatable {
    public var from: AuditDay
    public var to: AuditDay
    public var appId: String?
    public var zone: UsageDayZone

    public init(from: AuditDay, to: AuditDay, appId: String? = nil, zone: UsageDayZone = .beijing) {
        self.from = from
        self.to = to
        self.appId = appId
        self.zone = zone
    }

    /// The first instant of `from`, in epoch milliseconds.
    public var startMilliseconds: Int64 { from.startMilliseconds(offsetMilliseconds: zone.offsetMilliseconds) }

    /// The first instant after `to`, in epoch milliseconds.
    public var endMilliseconds: Int64 { to.startMilliseconds(offsetMilliseconds: zone.offsetMilliseconds) + AuditTime.millisecondsPerDay }

    func contains(_ record: AuditRecord) -> Bool {
        guard record.timeMilliseconds >= startMilliseconds, record.timeMilliseconds < endMilliseconds else { return false }
        return appId.map { $0 == record.appId } ?? true
    }
}
