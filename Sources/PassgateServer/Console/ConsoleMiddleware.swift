import Hummingbird
import PassgateConsole
import PassgateCore

/// On every console answer: the security headers, and an HTML page instead of the API's JSON
/// envelope when a route fails (a person reads it, not a program).
struct ConsoleHeadersMiddleware: RouterMiddleware {
    typealias Context = PassgateRequestContext
    let layout: ConsoleLayout

    func handle(_ request: Request, context: Context, next: @concurrent (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
        } catch {
            let failure = PassgateError.from(error)
            response = ConsoleResponse.html(
                ConsoleMessagePage.problem(layout: layout, title: "Something went wrong", message: failure.message, csrf: nil),
                status: failure.status)
            if let seconds = failure.retryAfterSeconds { response.headers[.retryAfter] = String(seconds) }
        }
        response.headers.append(contentsOf: ConsoleResponse.securityHeaders)
        return response
    }
}

/// The gate in front of every console route but sign-in and the stylesheet: a request without a
/// live session is sent to sign in (GET) or refused (anything else), and a state-changing request
/// whose form lacks the session's CSRF token is refused, before the route runs.
struct ConsoleSessionMiddleware: RouterMiddleware {
    typealias Context = PassgateRequestContext
    let sessions: ConsoleSessions
    let layout: ConsoleLayout

    func handle(_ request: Request, context: Context, next: @concurrent (Request, Context) async throws -> Response) async throws -> Response {
        let safe = request.method == .get || request.method == .head
        guard case .active(let session) = sessions.lookUp(request.cookies[ConsoleSessions.cookieName]?.value) else {
            guard safe else {
                return refusal("You are not signed in, or your session has ended. Sign in again, then repeat what you did.", csrf: nil)
            }
            return ConsoleResponse.redirect(to: ConsoleLayout.signInPath)
        }
        context.facts.clientId = "admin"
        guard !safe else { return try await next(request, context) }
        var request = request
        let form = try? await ConsoleForm.decode(ConsoleForm.CSRF.self, from: &request)
        guard ConsoleSessions.csrfMatches(session, form?.csrf) else {
            return refusal("This form is out of date or did not come from the console (its CSRF token is missing or wrong). "
                + "Open the page again and repeat what you did.", csrf: session.csrf)
        }
        return try await next(request, context)
    }

    private func refusal(_ message: String, csrf: String?) -> Response {
        ConsoleResponse.html(ConsoleMessagePage.problem(layout: layout, title: "Refused", message: message, csrf: csrf), status: .forbidden)
    }
}
