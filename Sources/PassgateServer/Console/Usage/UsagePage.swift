import PassgateAudit
import PassgateConsole
import PassgateCore

/// The usage page's content: the range form, a bar per day (inline SVG with the numbers as text,
/// so it reads without colour), the rows `passgate usage` prints and the CSV link.
struct UsagePage {
    static let path = "/console/usage"
    static let title = "Usage"
    /// Width of the busiest day's bar, in SVG user units.
    static let barWidth = 240

    /// The range as the form shows it back (the query's, or the text sent when it has a problem).
    var from: String
    var to: String
    var problem: UsageView.Problem?
    var report: UsageReport?
    /// Why there is no report although the range is fine (the audit log is off or unreadable).
    var unavailable: String?

    var content: HTML {
        let problem: HTML = self.problem.map {
            "<p id=\"usage-problem\" class=\"notice error\" role=\"alert\"><strong>\($0.field):</strong> \($0.message)</p>\n"
        } ?? unavailable.map { "<p id=\"usage-problem\" class=\"notice error\" role=\"alert\">\($0)</p>\n" } ?? ""
        let result: HTML = report.map { report in
            let malformed: HTML = report.malformedCount == 0 ? "" : """
                <p class="notice">\(report.malformedCount) malformed audit line(s) skipped, not counted; <code>passgate usage</code> lists them.</p>

                """
            return """
                <p><a id="usage-csv" href="/console/usage.csv?from=\(report.query.from.description)&amp;to=\(report.query.to.description)" download>Download CSV</a> \
                (\(report.query.from.description) to \(report.query.to.description))</p>
                \(Self.chart(UsageView.perDay(report)))\(Self.table(report))\(malformed)
                """
        } ?? ""
        return """
            <p>Carrier calls from the audit log, billable and not, by Beijing day (UTC+8), app, provider and operation: \
            what <code>passgate usage</code> prints.</p>
            <form id="usage-form" method="get" action="\(Self.path)">
            <label for="from">From</label><input type="date" id="from" name="from" value="\(from)">
            <label for="to">To</label><input type="date" id="to" name="to" value="\(to)">
            <button type="submit">Show</button>
            </form>
            \(problem)\(result)
            """
    }

    /// One row per day: the date, an SVG bar as long as its share of the busiest day's calls
    /// (the billable part darker) and the numbers as text. SVG attributes, not `style`: the
    /// console's content policy allows no inline CSS.
    static func chart(_ days: [(day: AuditDay, counts: UsageReport.Counts)]) -> HTML {
        let busiest = max(1, days.map(\.counts.calls).max() ?? 0)
        let rows = days.map { day, counts -> HTML in
            let calls = counts.calls * barWidth / busiest, billable = counts.billable * barWidth / busiest
            return """
                <li><span class="mono">\(day.description)</span> \
                <svg width="\(barWidth)" height="12" viewBox="0 0 \(barWidth) 12" aria-hidden="true" focusable="false">\
                <rect width="\(calls)" height="12" fill="#9db4cc"></rect><rect width="\(billable)" height="12" fill="#1f4e79"></rect></svg> \
                <span class="bar-numbers">\(counts.calls) calls, \(counts.billable) billable</span></li>

                """
        }
        return """
            <figure id="usage-chart"><figcaption>Calls per day (the darker part: billable)</figcaption>
            <ol class="bars">
            \(rows)</ol></figure>

            """
    }

    /// The report's rows and a total row, as `passgate usage` prints them.
    static func table(_ report: UsageReport) -> HTML {
        var rows = report.rows.map { key, counts -> HTML in
            """
            <tr><td>\(key.day.description)</td><td>\(key.appId)</td><td>\(key.provider)</td><td>\(key.operation)</td>\
            <td class="number">\(counts.calls)</td><td class="number">\(counts.billable)</td><td class="number">\(counts.nonBillable)</td></tr>

            """
        }
        if rows.isEmpty { rows = ["<tr><td colspan=\"7\">No carrier calls in this range.</td></tr>\n"] }
        let total = report.total
        return """
            <div class="scroll"><table id="usage-rows"><caption>Calls by day, app, provider and operation</caption>
            <thead><tr><th scope="col">Day</th><th scope="col">App</th><th scope="col">Provider</th><th scope="col">Operation</th>\
            <th scope="col">Calls</th><th scope="col">Billable</th><th scope="col">Non-billable</th></tr></thead>
            <tbody>
            \(rows)</tbody>
            <tfoot><tr><th scope="row" colspan="4">Total</th><td class="number">\(total.calls)</td><td class="number">\(total.billable)</td>\
            <td class="number">\(total.nonBillable)</td></tr></tfoot></table></div>

            """
    }
}
