import PassgateCore
import Hummingbird
import PassgateConfig

/// The admin listener (loopback by default), behind the admin key: `POST /admin/reload`, and
/// `GET /admin/readyz`, which says what the public `/readyz` only sums up as ready or not.
struct AdminController {
    let authenticator: ClientAuthenticator
    let reloader: ConfigurationReloader
    let readiness: Readiness

    init(keyHash: [UInt8], reloader: ConfigurationReloader, readiness: Readiness) {
        authenticator = ClientAuthenticator(clients: [ClientSettings(id: "admin", apiKeySHA256: keyHash, apps: [])])
        self.reloader = reloader
        self.readiness = readiness
    }

    func register(on router: Router<PassgateRequestContext>) {
        router.post("admin/reload") { request, context in
            _ = try authenticator.authenticate(authorization: request.headers.joinedValue(of: .authorization))
            context.facts.clientId = "admin"
            let report = try await reloader.reload(trigger: "admin API")
            return JSONBody.response(report)
        }
        router.get("admin/readyz") { request, context in
            _ = try authenticator.authenticate(authorization: request.headers.joinedValue(of: .authorization))
            context.facts.clientId = "admin"
            let (ready, checks) = await readiness.evaluate()
            return JSONBody.response(HealthController.Status(status: ready ? "ready" : "not_ready", checks: checks),
                                         status: ready ? .ok : .serviceUnavailable)
        }
    }
}

/// The admin routes, for the OpenAPI contract test (served on `admin.port`, not `server.port`).
public let passgateAdminRoutes: [String] = ["POST /admin/reload", "GET /admin/readyz"] + passgateConsoleRoutes + passgateConsoleCheckRoutes
