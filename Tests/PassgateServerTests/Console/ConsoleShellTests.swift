import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PassgateConfig
import PassgateCore
import PassgateTestSupport
import Testing

@testable import PassgateServer

/// The console's shell on the admin router, in-process: sign-in, the session cookie, expiry on a
/// manual clock, the CSRF gate and the security headers.
@Suite("console shell")
struct ConsoleShellTests {
    @Test("the right admin key signs in: 303 to /console with an HttpOnly, SameSite=Strict session cookie on /console with Max-Age")
    func signInSetsCookie() async throws {
        try await ConsoleHarness.with { console in
            let response = try await console.postForm("/console/sign-in", ["key": TestConfiguration.adminKey])
            #expect(response.status == .seeOther && response.headers[.location] == "/console")
            let cookie = try #require(response.headers[.setCookie])
            let attributes = Set(cookie.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) })
            #expect(cookie.hasPrefix("passgate_console=") && cookie.count > "passgate_console=".count + 60, "\(cookie)")
            #expect(attributes.isSuperset(of: ["HttpOnly", "SameSite=Strict", "Path=/console", "Max-Age=28800"]), "\(cookie)")
            #expect(!attributes.contains("Secure"), "plain HTTP without X-Forwarded-Proto: no Secure")
            let page = try await console.get("/console", cookie: String(cookie.split(separator: ";")[0]))
            #expect(page.status == .ok && String(buffer: page.body).contains("<h1>Overview</h1>"))
        }
    }

    @Test("behind a TLS load balancer (X-Forwarded-Proto: https), or with admin.consoleSecureCookie, the cookie is Secure")
    func secureCookie() async throws {
        try await ConsoleHarness.with { console in
            let response = try await console.postForm("/console/sign-in", ["key": TestConfiguration.adminKey], headers: [.xForwardedProto: "https"])
            #expect(response.headers[.setCookie]?.contains("; Secure") == true, "\(response.headers[.setCookie] ?? "")")
        }
        var configuration = try ConsoleHarness.configuration()
        configuration.admin.consoleSecureCookie = true
        try await ConsoleHarness.with(configuration) { console in
            let response = try await console.postForm("/console/sign-in", ["key": TestConfiguration.adminKey])
            #expect(response.headers[.setCookie]?.contains("; Secure") == true, "\(response.headers[.setCookie] ?? "")")
        }
    }

    @Test("a wrong key is refused with 401 and the sign-in form again, no cookie, and the key not echoed")
    func wrongKeyRefused() async throws {
        try await ConsoleHarness.with { console in
            let response = try await console.postForm("/console/sign-in", ["key": "not-the-key-<b>"])
            let page = String(buffer: response.body)
            #expect(response.status == .unauthorized && response.headers[.setCookie] == nil)
            #expect(page.contains("That is not the admin key") && page.contains("<h1>Sign in</h1>") && !page.contains("not-the-key"))
            #expect(try await console.postForm("/console/sign-in", [:]).status == .unauthorized)
        }
    }

    @Test("without a session, a page redirects to sign-in and a POST is refused with 403")
    func noSession() async throws {
        try await ConsoleHarness.with { console in
            let page = try await console.get("/console")
            #expect(page.status == .seeOther && page.headers[.location] == "/console/sign-in")
            let forged = try await console.get("/console", cookie: "passgate_console=" + String(repeating: "ab", count: 32))
            #expect(forged.status == .seeOther)
            let post = try await console.postForm("/console/sign-out", ["csrf": "anything"])
            #expect(post.status == .forbidden && String(buffer: post.body).contains("not signed in"))
        }
    }

    @Test("a POST with the session but without the right CSRF token is refused with 403 before it runs")
    func csrfRequired() async throws {
        try await ConsoleHarness.with { console in
            let session = try await console.signIn()
            for fields in [[:], ["csrf": ""], ["csrf": String(session.csrf.reversed())]] {
                let refused = try await console.postForm("/console/sign-out", fields, cookie: session.cookie)
                #expect(refused.status == .forbidden && String(buffer: refused.body).contains("CSRF token"), "\(fields)")
            }
            #expect(try await console.get("/console", cookie: session.cookie).status == .ok, "the refused sign-outs did not run")
            let signOut = try await console.postForm("/console/sign-out", ["csrf": session.csrf], cookie: session.cookie)
            #expect(signOut.status == .seeOther && signOut.headers[.location] == "/console/sign-in")
            #expect(signOut.headers[.setCookie]?.contains("Max-Age=0") == true)
            #expect(try await console.get("/console", cookie: session.cookie).status == .seeOther, "signed out")
        }
    }

    @Test("every state-changing console route refuses a POST without a session, or without the session's CSRF token",
          arguments: passgateConsoleRoutes.filter { $0.hasPrefix("POST ") && $0 != "POST /console/sign-in" })
    func everyPostRouteIsGated(route: String) async throws {
        let path = String(route.dropFirst("POST ".count))
        try await ConsoleHarness.with { console in
            #expect(try await console.postForm(path, ["csrf": "x"]).status == .forbidden, "no session")
            let session = try await console.signIn()
            #expect(try await console.postForm(path, [:], cookie: session.cookie).status == .forbidden, "no CSRF token")
            #expect(try await console.postForm(path, ["csrf": String(repeating: "0", count: 64)], cookie: session.cookie).status == .forbidden)
        }
    }

    @Test("a session ends after admin.consoleIdleMinutes without a request, and after consoleSessionMinutes however active")
    func expiryOnManualClock() async throws {
        var configuration = try ConsoleHarness.configuration()
        configuration.admin.consoleIdleMinutes = 10
        configuration.admin.consoleSessionMinutes = 30
        try await ConsoleHarness.with(configuration) { console in
            let idle = try await console.signIn()
            console.clock.advance(milliseconds: 9 * 60_000)
            #expect(try await console.get("/console", cookie: idle.cookie).status == .ok)
            console.clock.advance(milliseconds: 10 * 60_000)
            #expect(try await console.get("/console", cookie: idle.cookie).status == .seeOther, "idle for 10 minutes")

            let busy = try await console.signIn()
            for _ in 0..<5 {
                console.clock.advance(milliseconds: 5 * 60_000)
                #expect(try await console.get("/console", cookie: busy.cookie).status == .ok)
            }
            console.clock.advance(milliseconds: 5 * 60_000)
            #expect(try await console.get("/console", cookie: busy.cookie).status == .seeOther, "30 minutes after sign-in")
        }
    }

    @Test("every console answer, pages, refusals and the stylesheet, carries no-store, DENY, no-referrer and the CSP")
    func securityHeaders() async throws {
        try await ConsoleHarness.with { console in
            let session = try await console.signIn()
            let answers = [
                try await console.get("/console/sign-in"),
                try await console.get("/console"),
                try await console.get("/console", cookie: session.cookie),
                try await console.get("/console/assets/console.css"),
                try await console.postForm("/console/sign-out", [:], cookie: session.cookie),
                try await console.postForm("/console/sign-in", ["key": "wrong"]),
            ]
            for answer in answers {
                #expect(answer.headers[.cacheControl] == "no-store")
                #expect(answer.headers[.xFrameOptions] == "DENY")
                #expect(answer.headers[.referrerPolicy] == "no-referrer")
                #expect(answer.headers[.contentSecurityPolicy] == ConsoleResponse.contentSecurityPolicy)
            }
            #expect(ConsoleResponse.contentSecurityPolicy.hasPrefix("default-src 'none'") && !ConsoleResponse.contentSecurityPolicy.contains("http"))
            let css = try await console.get("/console/assets/console.css")
            #expect(css.status == .ok && css.headers[.contentType] == "text/css; charset=utf-8")
        }
    }

    @Test("a signed-in browser opening the sign-in page goes to the overview")
    func signInPageWhenSignedIn() async throws {
        try await ConsoleHarness.with { console in
            let session = try await console.signIn()
            let page = try await console.get("/console/sign-in", cookie: session.cookie)
            #expect(page.status == .seeOther && page.headers[.location] == "/console")
        }
    }
}
