import CurlTransport
import Foundation
import HTTPTypes
import PassgateConfig
import PassgateCore
import PassgateLiveTestSupport
import PassgateTestSupport
import Testing

@testable import PassgateServer

/// Errors produced before any carrier call: in-process through the router (the envelope is the
/// same on a socket), except where the listeners themselves are the point.
@Suite("REST API: request, auth and app errors")
struct RequestErrorTests {
    static let md5 = TestConfiguration.md5App

    @Test("authentication: missing header, wrong scheme and unknown key are 401 unauthenticated")
    func unauthenticated() async throws {
        try await InProcessPassgate.with { passgate in
            let body = [UInt8](#"{"appId":"300011111111","token":"t"}"#.utf8)
            for headers: [(name: String, value: String)] in [[], [("Authorization", "Basic abc")], [("Authorization", "Bearer wrong-key")]] {
                let answer = try await passgate.send(.post, "/v1/phone-number", body: body, headers: headers + [("Content-Type", "application/json")])
                #expect(answer.status == 401 && answer.errorCode == "unauthenticated", "\(answer.body)")
                #expect(answer.error["retryable"] as? Bool == false)
                #expect(answer.error["field"] as? String == "Authorization")
            }
        }
    }

    @Test("appId: unknown is 404 app_unknown, not granted is 403 app_forbidden")
    func appChecks() async throws {
        try await InProcessPassgate.with { passgate in
            let unknown = try await passgate.post("/v1/phone-number", ["appId": "399999999999", "token": "t"])
            #expect(unknown.status == 404 && unknown.errorCode == "app_unknown", "\(unknown.body)")
            let forbidden = try await passgate.post("/v1/phone-number", ["appId": Self.md5, "token": "t"], apiKey: TestConfiguration.otherApiKey)
            #expect(forbidden.status == 403 && forbidden.errorCode == "app_forbidden", "\(forbidden.body)")
            #expect((forbidden.error["message"] as? String)?.contains("other") == true)
        }
    }

    @Test(
        "malformed bodies are 400 invalid_request naming the field",
        arguments: [
            (#"{"appId":"300011111111""#, "body"),
            ("[1,2]", "body"),
            ("", "body"),
            (#"{"token":"abc"}"#, "appId"),
            (#"{"appId":"3000 1111","token":"abc"}"#, "appId"),
            (#"{"appId":300011111111,"token":"abc"}"#, "appId"),
            (#"{"appId":"300011111111"}"#, "token"),
            (#"{"appId":"300011111111","token":""}"#, "token"),
            (#"{"appId":"300011111111","token":"a b"}"#, "token"),
            (#"{"appId":"300011111111","token":null}"#, "token"),
            (#"{"appId":"300011111111","token":"t","reference":7}"#, "reference"),
            (String(repeating: "[", count: 3000), "body"),
            ("\u{FF}\u{FE}{}", "body"),
        ]
    )
    func invalidBodies(body: String, field: String) async throws {
        try await InProcessPassgate.with { passgate in
            let answer = try await passgate.send(.post, "/v1/phone-number", body: Array(body.utf8), headers: [("Authorization", "Bearer \(TestConfiguration.apiKey)"), ("Content-Type", "application/json")])
            #expect(answer.status == 400 && answer.errorCode == "invalid_request", "\(answer.body)")
            #expect(answer.error["field"] as? String == field, "\(answer.body)")
            #expect((answer.error["message"] as? String)?.hasPrefix(field) == true)
        }
    }

    @Test("body errors say what the JSON problem is and where, and which kind a mistyped field held")
    func bodyErrorWording() async throws {
        try await InProcessPassgate.with { passgate in
            let headers = [("Authorization", "Bearer \(TestConfiguration.apiKey)"), ("Content-Type", "application/json")]
            let cases: [(String, String)] = [
                (#"{"appId":"300011111111","token":"abc",}"#, "body: is not valid JSON (unexpected character '}' at byte 38)"),
                (#"{"appId":"300011111111""#, "body: is not valid JSON (unexpected end of input at byte 23)"),
                ("[1,2]", "body: must be a JSON object, not an array"),
                (#"{"appId":300011111111,"token":"abc"}"#, "appId: must be a string, not a number"),
                (#"{"appId":"300011111111","token":true}"#, "token: must be a string, not a boolean"),
            ]
            for (body, message) in cases {
                let answer = try await passgate.send(.post, "/v1/phone-number", body: Array(body.utf8), headers: headers)
                #expect(answer.status == 400 && (answer.error["message"] as? String)?.hasPrefix(message) == true, "\(body) -> \(answer.body)")
            }
        }
    }

    @Test("verify: a phone number that is not 11 mainland digits is invalid_request on phoneNumber", arguments: ["+8613800138000", "1380013800", "12800138000", "138 0013 8000"])
    func badPhoneNumbers(phone: String) async throws {
        try await InProcessPassgate.with { passgate in
            let answer = try await passgate.post("/v1/phone-number/verify", ["appId": Self.md5, "token": "t", "phoneNumber": phone])
            #expect(answer.status == 400 && answer.error["field"] as? String == "phoneNumber", "\(answer.body)")
        }
    }

    @Test("wrong content type is 415, an oversized body 413, an unknown path 404 not_found")
    func mediaSizeAndRoutes() async throws {
        try await InProcessPassgate.with { passgate in
            let auth = ("Authorization", "Bearer \(TestConfiguration.apiKey)")
            let form = try await passgate.send(.post, "/v1/phone-number", body: Array("appId=1".utf8), headers: [auth, ("Content-Type", "application/x-www-form-urlencoded")])
            #expect(form.status == 415 && form.errorCode == "unsupported_media_type", "\(form.body)")
            let big = #"{"appId":"300011111111","token":""# + String(repeating: "a", count: 5000) + #""}"#
            let large = try await passgate.send(.post, "/v1/phone-number", body: Array(big.utf8), headers: [auth, ("Content-Type", "application/json")])
            #expect(large.status == 413 && large.errorCode == "payload_too_large", "\(large.body)")
            let missing = try await passgate.send(.get, "/v1/phone-numbers", headers: [auth])
            #expect(missing.status == 404 && missing.errorCode == "not_found", "\(missing.body)")
        }
    }

    @Test("a known path asked with another method is 405 method_not_allowed with Allow, on every listener; an unknown path stays 404")
    func methodNotAllowed() async throws {
        try await withEveryListener { passgate, api, admin, metrics in
            let cases: [(Int, CurlHTTPClient.Method, String, String)] = [
                (api, .get, "/v1/phone-number", "POST"), (api, .delete, "/v1/phone-number/verify", "POST"),
                (api, .post, "/healthz", "GET"), (api, CurlHTTPClient.Method(rawValue: "TRACE"), "/readyz", "GET"), (api, .put, "/healthz", "GET"),
                (admin, .get, "/admin/reload", "POST"), (metrics, .post, "/metrics", "GET"),
            ]
            for (port, method, path, allow) in cases {
                let response = try await passgate.http.send(.init(method: method, url: "http://127.0.0.1:\(port)\(path)", timeoutMs: 10_000))
                let json = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
                let error = json["error"] as? [String: Any] ?? [:]
                #expect(response.status == 405 && error["code"] as? String == "method_not_allowed", "\(method) \(path): \(json)")
                #expect(response.header("Allow") == allow && error["action"] as? String == "fix_request", "\(method) \(path)")
            }
            // /metrics belongs to the metrics listener: on the API port it is no route at all.
            for (port, path) in [(api, "/metrics"), (api, "/admin/reload"), (metrics, "/healthz")] {
                let response = try await passgate.http.send(.init(method: .get, url: "http://127.0.0.1:\(port)\(path)", timeoutMs: 10_000))
                #expect(response.status == 404 && response.header("Allow") == nil, "\(path) on \(port)")
            }
        }
    }

    @Test("the admin and metrics listeners answer through the same HTTP/1.1 channel as the API: their own Server name, a Date, the JSON error envelope")
    func operationsListenersShareTheAPIChannel() async throws {
        try await withEveryListener { passgate, _, admin, metrics in
            for round in 0..<3 {
                let scrape = try await passgate.http.send(.init(url: "http://127.0.0.1:\(metrics)/metrics", timeoutMs: 10_000))
                #expect(scrape.status == 200 && scrape.header("Server") == "passgate-metrics", "round \(round)")
                #expect(scrape.header("Date")?.hasSuffix(" GMT") == true && scrape.header("Content-Length") == String(scrape.body.count))
                let unauthorised = try await passgate.http.send(.init(method: .post, url: "http://127.0.0.1:\(admin)/admin/reload", timeoutMs: 10_000))
                let json = try #require(try JSONSerialization.jsonObject(with: Data(unauthorised.body)) as? [String: Any])
                #expect(unauthorised.status == 401 && unauthorised.header("Server") == "passgate-admin", "\(json)")
                #expect((json["error"] as? [String: Any])?["code"] as? String == "unauthenticated")
            }
        }
    }

    /// A running Passgate with its admin listener on as well, and the three listeners' ports.
    private func withEveryListener(_ body: (RunningPassgate, _ api: Int, _ admin: Int, _ metrics: Int) async throws -> Void) async throws {
        var configuration = TestConfiguration.make()
        configuration.admin.apiKeySHA256 = TestConfiguration.hash("admin-key")
        configuration.admin.port = 0
        try await withRunningPassgate(configuration) { passgate in
            let admin = try #require(passgate.endpoints.adminPort), metrics = try #require(passgate.endpoints.metricsPort)
            try await body(passgate, passgate.endpoints.apiPort, admin, metrics)
        }
    }

    @Test("1,000 random byte bodies never crash or hang the server, and each gets a JSON error")
    func fuzzedBodies() async throws {
        try await InProcessPassgate.with { passgate in
            var generator = SystemRandomNumberGenerator()
            let pieces = ["{", "}", "[", "]", "\"", ":", ",", "appId", "token", "300011111111", "null", "1e999", "\\u0000", "\u{0}", "é", " "]
            try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<1000 {
                    let body: [UInt8] = index % 2 == 0
                        ? (0..<Int.random(in: 0...300, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
                        : Array((0..<Int.random(in: 1...40, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined().utf8)
                    group.addTask {
                        let answer = try await passgate.send(.post, "/v1/phone-number", body: body, headers: [("Authorization", "Bearer \(TestConfiguration.apiKey)"), ("Content-Type", "application/json")])
                        return answer.errorCode == nil ? 0 : answer.status
                    }
                }
                for try await status in group {
                    #expect([400, 404, 422].contains(status), "unexpected status \(status)")
                }
            }
            let health = try await passgate.send(.get, "/healthz", headers: [])
            #expect(health.status == 200)
        }
    }
}

@Suite("REST API: rate limits")
struct RateLimitTests {
    @Test("the token bucket admits ratePerSecond a second, refuses the rest with a wait, and refills")
    func bucket() throws {
        let client = ClientSettings(id: "c", apiKeySHA256: [], apps: [], ratePerSecond: 4)
        let clock = ManualClock(milliseconds: 0)
        let limiter = ClientRateLimiter(clients: [client], clock: clock)
        for _ in 0..<4 { try limiter.admit(client) }
        do {
            try limiter.admit(client)
            Issue.record("fifth request in the same instant admitted")
        } catch {
            #expect(error.code == .rateLimited && error.retryAfterSeconds == 1)
        }
        clock.advance(milliseconds: 260)
        try limiter.admit(client)  // one token back after 250 ms
        clock.advance(milliseconds: 10)
        #expect(throws: PassgateError.self) { try limiter.admit(client) }
        let unlimited = ClientSettings(id: "u", apiKeySHA256: [], apps: [])
        for _ in 0..<1000 { try limiter.admit(unlimited) }
    }

    @Test("a reload keeps the buckets of clients whose rate is unchanged and starts changed or new ones afresh")
    func bucketsSurviveReload() throws {
        let steady = ClientSettings(id: "steady", apiKeySHA256: [], apps: [], ratePerSecond: 2)
        let changed = ClientSettings(id: "changed", apiKeySHA256: [], apps: [], ratePerSecond: 2)
        let clock = ManualClock(milliseconds: 0)
        let old = ClientRateLimiter(clients: [steady, changed], clock: clock)
        for _ in 0..<2 {
            try old.admit(steady)
            try old.admit(changed)
        }
        var raised = changed
        raised.ratePerSecond = 3
        let reloaded = ClientRateLimiter(clients: [steady, raised], carryingOver: old, clock: clock)
        // steady spent its burst before the reload and still has none.
        #expect(throws: PassgateError.self) { try reloaded.admit(steady) }
        // changed has a new rate: a new bucket, full.
        for _ in 0..<3 { try reloaded.admit(raised) }
        // Without a previous limiter nothing carries over.
        try ClientRateLimiter(clients: [steady], clock: clock).admit(steady)
    }

    @Test("over HTTP a client over its rate gets 429 rate_limited with Retry-After; other clients are unaffected")
    func perClientLimit() async throws {
        var configuration = TestConfiguration.make()
        configuration.clients[0].ratePerSecond = 2
        // The clock stands still: the bucket refills by nothing while the burst is in flight.
        try await InProcessPassgate.with(configuration, clock: ManualClock(milliseconds: 1_764_000_000_000)) { passgate in
            struct Seen: Sendable { var status: Int; var code: String?; var retryable: Bool?; var retryAfter: String? }
            let answers = try await withThrowingTaskGroup(of: Seen.self) { group in
                for _ in 0..<10 {
                    group.addTask {
                        let answer = try await passgate.post("/v1/phone-number", ["appId": "399999999999", "token": "t"])
                        return Seen(status: answer.status, code: answer.errorCode, retryable: answer.error["retryable"] as? Bool, retryAfter: answer.header("Retry-After"))
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            // Two tokens to start with, and none more: the clock did not move.
            let limited = answers.filter { $0.status == 429 }
            #expect(limited.count == 8, "\(answers.map(\.status))")
            #expect(answers.allSatisfy { $0.status == 429 || $0.status == 404 })
            let sample = try #require(limited.first)
            #expect(sample.code == "rate_limited" && sample.retryable == true)
            #expect(sample.retryAfter == "1")
            let other = try await passgate.post("/v1/phone-number", ["appId": "399999999999", "token": "t"], apiKey: TestConfiguration.otherApiKey)
            #expect(other.status == 404)
        }
    }
}
