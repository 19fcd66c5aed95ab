import Hummingbird
import PassgateConsole

extension ConsoleController {
    /// `GET /console`: the instance's readiness, each check as a word.
    func overview(_ request: Request) async throws -> Response {
        let csrf = try csrf(request)
        let (ready, checks) = await readiness.evaluate()
        let rows = checks.sorted { $0.key < $1.key }.map { name, detail -> HTML in
            let ok = detail.hasPrefix("ok")
            return "<tr><th scope=\"row\">\(name)</th><td class=\"\(ok ? "status-good" : "status-bad")\">\(detail)</td></tr>"
        }
        let content: HTML = """
            <p>This instance is <strong>\(ready ? "ready" : "not ready")</strong> for traffic.</p>
            <div class="scroll"><table>
            <caption>Readiness checks</caption>
            <thead><tr><th scope="col">Check</th><th scope="col">Result</th></tr></thead>
            <tbody>\(rows)</tbody>
            </table></div>
            """
        return ConsoleResponse.html(layout.page(title: "Overview", path: "/console", csrf: csrf, refreshSeconds: 30, content: content))
    }
}
