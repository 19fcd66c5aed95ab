import NIOCore
import PassgateConfig
import PassgateCore
import PassgateLiveTestSupport
import PassgateTestSupport
import Testing

@testable import PassgateServer

@Suite("REST API: failed authentications per source")
struct AuthFailureLimiterTests {
    static let source = AuthFailureLimiter.Source(try? SocketAddress(ipAddress: "192.0.2.1", port: 40_001))!
    static let other = AuthFailureLimiter.Source(try? SocketAddress(ipAddress: "192.0.2.2", port: 40_001))!

    @Test("a source's failures are refused once used up, with the wait until one is back; other sources are unaffected")
    func refusesAfterItsFailures() throws {
        let clock = ManualClock(milliseconds: 0)
        let limiter = AuthFailureLimiter(perMinute: 3, clock: clock)
        for _ in 0..<3 {
            try limiter.admit(Self.source)
            limiter.recordFailure(Self.source)
        }
        do {
            try limiter.admit(Self.source)
            Issue.record("a fourth attempt in the same minute was admitted")
        } catch {
            #expect(error.code == .rateLimited && error.retryAfterSeconds == 20)
        }
        try limiter.admit(Self.other)
        // One failure back every 20 s at 3 a minute.
        clock.advance(milliseconds: 19_000)
        #expect(throws: PassgateError.self) { try limiter.admit(Self.source) }
        clock.advance(milliseconds: 1_000)
        try limiter.admit(Self.source)
    }

    @Test("the port is not part of the source: a new connection from the same address shares its failures")
    func portIgnored() throws {
        let clock = ManualClock(milliseconds: 0)
        let limiter = AuthFailureLimiter(perMinute: 1, clock: clock)
        limiter.recordFailure(Self.source)
        let samePeerNewPort = try #require(AuthFailureLimiter.Source(try SocketAddress(ipAddress: "192.0.2.1", port: 40_002)))
        #expect(throws: PassgateError.self) { try limiter.admit(samePeerNewPort) }
    }

    @Test("only failures count: a source whose requests authenticate is never refused")
    func successesDoNotCount() throws {
        let clock = ManualClock(milliseconds: 0)
        let limiter = AuthFailureLimiter(perMinute: 1, clock: clock)
        for _ in 0..<1_000 { try limiter.admit(Self.source) }
    }

    @Test("0 turns the limit off")
    func off() throws {
        let clock = ManualClock(milliseconds: 0)
        let limiter = AuthFailureLimiter(perMinute: 0, clock: clock)
        for _ in 0..<100 {
            limiter.recordFailure(Self.source)
            try limiter.admit(Self.source)
        }
    }

    @Test("the table is fixed in size: many new sources push out the most forgiven ones, not one being refused")
    func boundedTable() throws {
        let clock = ManualClock(milliseconds: 0)
        let limiter = AuthFailureLimiter(perMinute: 2, clock: clock)
        limiter.recordFailure(Self.source)
        limiter.recordFailure(Self.source)
        #expect(throws: PassgateError.self) { try limiter.admit(Self.source) }
        // Ten sources per place in the table, each failing once (one failure left each).
        let places = AuthFailureLimiter.sets * AuthFailureLimiter.ways
        for index in 0..<(10 * places) {
            let address = try SocketAddress(ipAddress: "2001:db8::\(String(index, radix: 16))", port: 1)
            limiter.recordFailure(try #require(AuthFailureLimiter.Source(address)))
        }
        #expect(throws: PassgateError.self, "a source with no failures left is the last to be forgotten") {
            try limiter.admit(Self.source)
        }
    }

    @Test("over HTTP a source sending unknown keys gets 429 rate_limited with Retry-After, while a valid key from the same source is still served")
    func overHTTP() async throws {
        var configuration = TestConfiguration.make(sandbox: false)
        configuration.server.authFailuresPerMinute = 3
        // The clock stands still, so the wait is exact: one failure back every 20 s.
        try await withRunningPassgate(configuration, clock: ManualClock(milliseconds: 1_764_000_000_000)) { passgate in
            let body: [String: Any] = ["appId": TestConfiguration.md5App, "token": "STsid0000000000000000authfail"]
            for _ in 0..<3 {
                #expect(try await passgate.post("/v1/phone-number", body, apiKey: "wrong-key").status == 401)
            }
            let refused = try await passgate.post("/v1/phone-number", body, apiKey: "wrong-key")
            #expect(refused.status == 429)
            #expect(refused.body.contains(#""code":"rate_limited""#))
            #expect(refused.header("Retry-After") == "20", "\(refused.headers)")
            // Behind a load balancer every client shares the source: a valid key is not locked out.
            let served = try await passgate.post("/v1/phone-number", body)
            #expect(served.status != 429 && served.status != 401, "\(served.body)")
            #expect(try await passgate.post("/v1/phone-number", body, apiKey: "wrong-key").status == 429)
        }
    }
}
