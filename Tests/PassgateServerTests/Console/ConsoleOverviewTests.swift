import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PassgateConfig
import PassgateCore
import PassgateTestSupport
import Testing

@testable import PassgateServer

/// The overview page, in-process: calls made through the gateway show up per provider and app,
/// with their codes explained; the window moves with the manual clock.
@Suite("console overview")
struct ConsoleOverviewTests {
    @Test("calls through the gateway appear per provider and per app with success ratio, and a failure's code with its meaning and action")
    func callsAndCodes() async throws {
        try await ConsoleHarness.with { console in
            for index in 0..<3 { try await console.exchange("echo-token-overview-\(index)") }
            try await console.exchange("echo-token-overview-0")  // spent: the echo carrier refuses it
            let session = try await console.signIn()
            let page = String(buffer: try await console.get("/console", cookie: session.cookie).body)
            #expect(page.contains("<h1>Overview</h1>") && page.contains("<meta http-equiv=\"refresh\" content=\"30\">"))
            let appRow = try #require(Self.row(in: page, startingWith: "<tr><th scope=\"row\">echo / \(InProcessPassgate.echoApp)</th>"))
            #expect(appRow.contains("<td class=\"number\">4</td>") && appRow.contains("75.0 %"), "\(appRow)")
            #expect(Self.row(in: page, startingWith: "<tr><th scope=\"row\">echo</th>") != nil)
            #expect(page.contains("<code>token_invalid</code>"), "the spent token's code is listed")
            #expect(page.contains("<code>new_token</code>"), "with what to do")
            #expect(!page.contains("echo-token-overview"), "no token on the page")
            #expect(!page.contains(InProcessPassgate.echoNumber), "no number on the page")
        }
    }

    @Test("the 5-minute columns forget a call after 5 minutes; the 60-minute ones keep it for an hour")
    func windowsMoveWithTheClock() async throws {
        try await ConsoleHarness.with { console in
            try await console.exchange("echo-token-window-1")
            console.clock.advance(milliseconds: 6 * 60_000)
            let session = try await console.signIn()
            let page = String(buffer: try await console.get("/console", cookie: session.cookie).body)
            let row = try #require(Self.row(in: page, startingWith: "<tr><th scope=\"row\">echo</th>"))
            #expect(row.hasPrefix("<tr><th scope=\"row\">echo</th><td class=\"number\">0</td><td>-</td>"), "\(row)")
            #expect(row.contains("<td class=\"number\">1</td>"), "\(row)")
            console.clock.advance(milliseconds: 60 * 60_000)
            let later = String(buffer: try await console.get("/console", cookie: (try await console.signIn()).cookie).body)
            #expect(later.contains("No carrier calls in the last 60 minutes."))
        }
    }

    @Test("each base URL's circuit and each provider's call cap are shown as words and numbers")
    func circuitsAndCaps() async throws {
        let carrier = EchoCarrier(secret: InProcessPassgate.echoSecret, number: InProcessPassgate.echoNumber)
        try await ConsoleHarness.with(carrier: carrier) { console in
            carrier.failTransfers(.connectionRefused)
            let threshold = try #require(console.configuration.providers["echo"]?.circuitFailureThreshold)
            for index in 0..<threshold { try await console.exchange("echo-token-circuit-\(index)") }
            let session = try await console.signIn()
            let page = String(buffer: try await console.get("/console", cookie: session.cookie).body)
            #expect(page.contains("<td><code>https://echo.invalid</code></td><td class=\"status-bad\">open: calls paused, failing fast</td>"), "\(page)")
            let cap = try #require(console.configuration.providers["echo"]?.maxConcurrentCalls)
            #expect(page.contains("<tr><td>echo</td><td class=\"number\">0</td><td class=\"number\">\(cap)</td>"))
            #expect(page.contains("<code>carrier_unavailable</code>"))
        }
    }

    /// The table row of `page` that starts with `prefix`.
    static func row(in page: String, startingWith prefix: String) -> String? {
        guard let start = page.range(of: prefix) else { return nil }
        let rest = page[start.lowerBound...]
        return rest.range(of: "</tr>").map { String(rest[..<$0.upperBound]) }
    }
}
