import Hummingbird
import PassgateConfig
import PassgateConsole
import PassgateCore

/// The operator console on the admin listener (`/console`, docs/console.md): sign-in with the
/// admin key, then pages behind a session cookie. Every answer carries the console's security
/// headers; every route but sign-in and the stylesheet is behind the session gate, which also
/// checks the CSRF token of every state-changing form.
struct ConsoleController {
    /// The pages, in navigation order.
    static let layout = ConsoleLayout(navigation: [
        .init(title: "Overview", path: "/console"),
        .init(title: "Configuration", path: ConfigurationPage.path),
        .init(title: "Usage", path: UsagePage.path), .init(title: "Integration check", path: IntegrationCheckPage.path),
    ])

    let authenticator: ClientAuthenticator
    let authFailures: AuthFailureLimiter
    let sessions: ConsoleSessions
    let readiness: Readiness
    /// The carrier calls' gateway: the overview's traffic, circuits and call caps.
    let gateway: ProviderGateway
    /// The admin API's reloader: the configuration in effect, and the reload button.
    let reloader: ConfigurationReloader
    /// Certificate expiry is counted from its wall time.
    let clock: any PassgateClock
    /// Marks the cookie `Secure` even without `X-Forwarded-Proto: https` (`admin.consoleSecureCookie`).
    let forcesSecureCookie: Bool

    var layout: ConsoleLayout { Self.layout }

    var routes: RouteCollection<PassgateRequestContext> {
        let routes = RouteCollection(context: PassgateRequestContext.self)
        routes.add(middleware: ConsoleHeadersMiddleware(layout: layout))
        routes.get("assets/console.css") { _, _ in ConsoleResponse.stylesheet() }
        routes.get("sign-in") { request, _ in
            if case .active = sessions.lookUp(request.cookies[ConsoleSessions.cookieName]?.value) {
                return ConsoleResponse.redirect(to: "/console")
            }
            return ConsoleResponse.html(ConsoleMessagePage.signIn(layout: layout))
        }
        routes.post("sign-in") { request, context in try await signIn(request, context: context) }
        routes.add(middleware: ConsoleSessionMiddleware(sessions: sessions, layout: layout))
        routes.post("sign-out") { request, _ in
            sessions.signOut(request.cookies[ConsoleSessions.cookieName]?.value)
            var response = ConsoleResponse.redirect(to: ConsoleLayout.signInPath)
            response.setCookie(cookie(value: "", maxAge: 0, request: request))
            return response
        }
        routes.get("") { request, _ in try await overview(request) }
        routes.get("configuration") { request, _ in try await configuration(request) }
        routes.post("configuration/reload") { request, context in try await reload(request, context: context) }
        return routes
    }

    /// The CSRF token of the request's session: the gate has let it through, so there is one
    /// (unless it ended in between: then sign in again).
    func csrf(_ request: Request) throws -> String {
        guard case .active(let session) = sessions.lookUp(request.cookies[ConsoleSessions.cookieName]?.value) else {
            throw PassgateError(.unauthenticated, .request(field: "session", problem: "ended"), message: "Your session has ended: sign in again.")
        }
        return session.csrf
    }

    /// The admin key from the form, compared as the admin API compares it; failures count
    /// against the source address as the API's do, and a source out of failures gets 429.
    private func signIn(_ request: Request, context: PassgateRequestContext) async throws -> Response {
        struct Form: Decodable { var key: String? }
        var request = request
        let key = try await ConsoleForm.decode(Form.self, from: &request).key ?? ""
        do {
            _ = try authenticator.authenticate(key: Array(key.utf8))
        } catch {
            if authFailures.perMinute > 0, let source = context.sourceAddress {
                do {
                    try authFailures.admit(source)
                } catch {
                    var response = ConsoleResponse.html(ConsoleMessagePage.signIn(layout: layout, problem: error.message), status: .tooManyRequests)
                    if let seconds = error.retryAfterSeconds { response.headers[.retryAfter] = String(seconds) }
                    return response
                }
                authFailures.recordFailure(source)
            }
            return ConsoleResponse.html(
                ConsoleMessagePage.signIn(layout: layout, problem: "That is not the admin key. Check it and try again."), status: .unauthorized)
        }
        context.facts.clientId = "admin"
        let (id, _) = try sessions.signIn()
        var response = ConsoleResponse.redirect(to: "/console")
        response.setCookie(cookie(value: id, maxAge: sessions.maxAgeSeconds, request: request))
        return response
    }

    /// The session cookie: script cannot read it, other sites' requests do not carry it, only the
    /// console's paths get it, and it is `Secure` when the browser reached us over TLS (the load
    /// balancer's `X-Forwarded-Proto: https`) or the setting says so.
    private func cookie(value: String, maxAge: Int, request: Request) -> Cookie {
        let tls = request.headers.joinedValue(of: .xForwardedProto)?.lowercased().hasPrefix("https") == true
        return Cookie(name: ConsoleSessions.cookieName, value: value, maxAge: maxAge, path: "/console",
                      secure: forcesSecureCookie || tls, httpOnly: true, sameSite: .strict)
    }
}

/// The console's routes, as `METHOD /path`, for `passgateAdminRoutes` and the contract test.
let passgateConsoleRoutes: [String] = [
    "GET /console", "GET /console/sign-in", "POST /console/sign-in", "POST /console/sign-out", "GET /console/assets/console.css",
    "GET /console/configuration", "POST /console/configuration/reload",
]
