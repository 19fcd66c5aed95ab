import Foundation
import HTTPTypes
import Hummingbird
import Synchronization

/// What `/readyz` checks. Each check answers quickly and says why it fails.
///
/// Only conditions of this instance decide readiness (draining, its audit log, its
/// configuration). What every instance shares (the carrier, the state store) is reported in the
/// body but never fails readiness: it would take every instance out of the load balancer at once.
final class Readiness: Sendable {
    typealias Check = @Sendable () async -> (ok: Bool, detail: String)

    /// One named check; `gating` ones decide readiness, the others are reported as `degraded`.
    struct NamedCheck: Sendable {
        var name: String
        var gating: Bool
        var check: Check
    }

    /// Serving normally, draining (`/readyz` 503, still serving), stopping (new requests refused).
    enum Phase: Int, Sendable, Comparable {
        case serving, draining, stopping
        static func < (lhs: Phase, rhs: Phase) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    private let phase = Mutex(Phase.serving)
    private let checks: [NamedCheck]

    init(checks: [NamedCheck]) {
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
        for named in checks {
            let (ok, detail) = await named.check()
            // A passing check may still have something to say (an open circuit is not a reason to
            // take the instance out: every instance sees the same carrier).
            results[named.name] = ok ? (detail.isEmpty ? "ok" : "ok: \(detail)") : "\(named.gating ? "fail" : "degraded"): \(detail)"
            ready = ready && (ok || !named.gating)
        }
        return (ready, results)
    }
}

/// `GET /healthz` (the process answers) and `GET /readyz` (it should get traffic). `/readyz` says
/// only ready or not: whoever can reach the API port (a load balancer, and possibly the internet)
/// learns nothing of the instance's internals; the checks one by one are on the admin listener
/// (`GET /admin/readyz`). Every check reads state this instance already holds: a health check
/// costs no round trip to the state store, however often it comes.
struct HealthController {
    let readiness: Readiness

    struct Status {
        var status: String
        var checks: [String: String]?
    }

    func register(on router: Router<PassgateRequestContext>) {
        router.get("healthz") { _, context in
            JSONBody.response(Status(status: "ok"))
        }
        router.get("readyz") { _, context in
            let (ready, _) = await readiness.evaluate()
            return JSONBody.response(Status(status: ready ? "ready" : "not_ready"), status: ready ? .ok : .serviceUnavailable)
        }
    }
}
