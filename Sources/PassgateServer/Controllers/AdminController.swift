import PassgateCore
import Hummingbird
import PassgateConfig

/// `POST /admin/reload` on the admin listener (loopback by default), behind the admin key.
struct AdminController {
    let authenticator: ClientAuthenticator
    let reloader: ConfigurationReloader

    init(keyHash: [UInt8], reloader: ConfigurationReloader) {
        authenticator = ClientAuthenticator(clients: [ClientSettings(id: "admin", apiKeySHA256: keyHash, apps: [])])
        self.reloader = reloader
    }

    func register(on router: Router<PassgateRequestContext>) {
        router.post("admin/reload") { request, context in
            _ = try authenticator.authenticate(authorization: request.headers.joinedValue(of: .authorization))
            context.facts.clientId = "admin"
            let report = try await reloader.reload(trigger: "admin API")
            return try JSONBody.response(report)
        }
    }
}

/// The admin routes, for the OpenAPI contract test (served on `admin.port`, not `server.port`).
public let passgateAdminRoutes: [String] = ["POST /admin/reload"]
