import Foundation
import HTTPTypes
import Hummingbird
import Synchronization

/// What `/readyz` checks. Each check answers quickly and says why it fails.
final class Readiness: Sendable {
    typealias Check = @Sendable () async -> (ok: Bool, detail: String)

    /// Serving normally, draining (`/readyz` 503, still serving), stopping (new requests refused).
    enum Phase: Int, Sendable, Comparable {
        case serving, draining, stopping
        static func < (lhs: Phase, rhs: Phase) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    private let phase = Mutex(Phase.serving)
    private let checks: [(name: String, check: Check)]

    init(checks: [(name: String, check: Check)]) {
        self.checks = checks
    }

    /// Flips `/readyz` to 503 so the load balancer stops sending traffic.
    func beginDraining() { phase.withLock { $0 = max($0, .draining) } }

    /// From now on new API requests get `service_draining`.
    func beginStopping() { phase.withLock { $0 = .stopping } }

    var isDraining: Bool { phase.withLock { $0 } >= .draining }
    var isStopping: Bool { phase.withLock { $0 } == .stopping }

    func evaluate() async -> (ready: Bool, checks: [String: String]) {
        var results: [String: String] = ["draining": isDraining ? "fail: instance is shutting down" : "ok"]
        var ready = !isDraining
        for (name, check) in checks {
            let (ok, detail) = await check()
            // A passing check may still have something to say (an open circuit is not a reason to
            // take the instance out: every instance sees the same carrier).
            results[name] = ok ? (detail.isEmpty ? "ok" : "ok: \(detail)") : "fail: \(detail)"
            ready = ready && ok
        }
        return (ready, results)
    }
}

/// `GET /healthz` (the process answers) and `GET /readyz` (it should get traffic).
struct HealthController {
    let readiness: Readiness

    struct Status: Encodable {
        var status: String
        var checks: [String: String]?
    }

    func register(on router: Router<PassgateRequestContext>) {
        router.get("healthz") { _, context in
            try JSONBody.response(Status(status: "ok"), requestId: context.requestId)
        }
        router.get("readyz") { _, context in
            let (ready, checks) = await readiness.evaluate()
            return try JSONBody.response(Status(status: ready ? "ready" : "not_ready", checks: checks),
                                         status: ready ? .ok : .serviceUnavailable, requestId: context.requestId)
        }
    }
}
