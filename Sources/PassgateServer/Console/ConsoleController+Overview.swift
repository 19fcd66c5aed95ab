import Hummingbird
import PassgateConsole

extension ConsoleController {
    /// `GET /console`: the overview, from the gateway's traffic window, breakers and call caps.
    func overview(_ request: Request) async throws -> Response {
        let csrf = try csrf(request)
        let (ready, checks) = await readiness.evaluate()
        let (lastFive, lastHour, window) = gateway.traffic.snapshot()
        var circuits: [OverviewPage.Circuit] = [], caps: [OverviewPage.CallCap] = []
        for (id, lane) in gateway.lanes.sorted(by: { $0.key < $1.key }) {
            for route in [lane.baseRoute] + (lane.verifyRoute.map { [$0] } ?? []) {
                circuits += route.breaker.states.map { .init(provider: id, url: $0.url, state: $0.state) }
            }
            let use = lane.limiter.use
            caps.append(.init(provider: id, inFlight: use.inFlight, limit: lane.limiter.limit, waiting: use.waiting))
        }
        let page = OverviewPage(
            ready: ready, checks: checks.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }, lastFive: lastFive, lastHour: lastHour,
            circuits: circuits, callCaps: caps, explain: { window.explanation(provider: $0, code: $1) })
        return ConsoleResponse.html(page.render(layout: layout, csrf: csrf))
    }
}
