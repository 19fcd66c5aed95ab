import PassgateTestSupport
import PassgateCore
import Foundation
import Logging
import Prometheus
import Testing

@testable import PassgateServer

/// The hand-written encoders that replaced Foundation on the per-request path (bench/decisions/0001-json-and-text-as-bytes.md)
/// must write what Foundation wrote, or at least valid JSON with the same content.
@Suite("hot path: hand-written JSON, log lines and timestamps")
struct HotPathEncodingTests {
    static let awkward = "quote \" backslash \\ slash / newline \n tab \t cr \r bell \u{07} unit \u{1F} 中文 é 😀"

    @Test("the bearer key is read from the header exactly as splitting at the first space and lowercasing the scheme read it")
    func bearerKeys() {
        func bySplitting(_ header: String) -> [UInt8]? {
            let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
            guard parts.count == 2, parts[0].lowercased() == "bearer", (1...512).contains(parts[1].utf8.count) else { return nil }
            return Array(parts[1].utf8)
        }
        var headers = [
            "Bearer key", "bearer key", "BEARER key", "BeArEr k", "  Bearer key", "Bearer  key", "Bearer key ", "Bearer a b",
            "Bearer", "Bearer ", "Bearerkey", "Bearer\tkey", "Basic abc", "", " ", "Bear key", "Bearers key", "B\u{e9}arer key",
            "Bearer 中文", "Bearer " + String(repeating: "k", count: 512), "Bearer " + String(repeating: "k", count: 513),
            "Bearer " + String(repeating: "é", count: 256), "Bearer " + String(repeating: "é", count: 257), "bEARER\u{0}x",
        ]
        // Each scheme letter in turn replaced by a punctuation byte (bit 0x40 flipped).
        headers += ["bearer", "BEARER"].flatMap { scheme in scheme.utf8.indices.map { index in
            var bytes = Array(scheme.utf8)
            bytes[scheme.utf8.distance(from: scheme.utf8.startIndex, to: index)] ^= 0x40
            return String(decoding: bytes, as: UTF8.self) + " key"
        } }
        for header in headers {
            #expect(ClientAuthenticator.bearerKey(in: header) == bySplitting(header), "\(header)")
        }
    }

    @Test("the media type of a Content-Type: parameters and blanks dropped, ASCII lowercased, nothing else touched")
    func mediaTypes() {
        let cases: [(String, String)] = [
            ("application/json", "application/json"),
            ("Application/JSON; charset=UTF-8", "application/json"),
            (" \tapplication/json \t;charset=utf-8", "application/json"),
            ("application/x-www-form-urlencoded", "application/x-www-form-urlencoded"),
            ("text/plain;application/json", "text/plain"),
            ("", ""),
            (";", ""),
            ("APPLICATION/JSÖN", "application/jsÖn"),
        ]
        for (header, expected) in cases {
            #expect(PhoneNumberController.mediaType(of: header) == expected, "\(header)")
        }
    }

    @Test("the JSON check over bytes accepts exactly what the media type comparison accepts")
    func jsonCheckMatchesMediaType() {
        let headers = [
            "application/json", "Application/JSON; charset=UTF-8", " \tapplication/json \t;charset=utf-8", "APPLICATION/JSON;",
            "application/json ", "application/jsonx", "xapplication/json", "application/jso", "application/json\u{0}",
            "application/x-www-form-urlencoded", "text/plain;application/json", "", ";", " ", "APPLICATION/JSÖN",
            "application/json;application/xml", "application\u{2F}json", "applicatioN/jsoN",
        ]
        for header in headers {
            #expect(PhoneNumberController.isJSON(header) == (PhoneNumberController.mediaType(of: header) == "application/json"), "\(header)")
        }
        #expect(PhoneNumberController.isJSON("Application/Json; charset=utf-8"))
        #expect(!PhoneNumberController.isJSON("application/json-patch+json"))
    }

    @Test("replay-cache entries round-trip through the one writer and reader, awkward text included")
    func storedOutcomesRoundTrip() throws {
        let outcomes: [StoredOutcome] = [
            .phoneNumber(phoneNumber: "13800138000", taskId: "task-1", riskScore: nil),
            .phoneNumber(phoneNumber: "13800138000", taskId: nil, riskScore: 420),
            .verification(result: .match, taskId: Self.awkward),
            .verification(result: .mismatch, taskId: nil),
            .failure(code: "token_invalid", message: Self.awkward, carrierProvider: "cmcc", carrierCode: "103101", carrierMessage: "bad sign",
                     action: "new_token"),
            .failure(code: "token_expired", message: "expired", carrierProvider: nil, carrierCode: nil, carrierMessage: nil, action: nil),
        ]
        for outcome in outcomes {
            let bytes = outcome.encoded()
            #expect(StoredOutcome.decode(bytes) == outcome, "\(String(decoding: bytes, as: UTF8.self))")
            #expect(try JSONSerialization.jsonObject(with: Data(bytes)) is NSDictionary)
        }
    }

    @Test("replay-cache entries as the previous version's JSONEncoder wrote them (escaped slashes, explicit nulls) still decode")
    func storedOutcomesFromJSONEncoderDecode() throws {
        let entries: [(String, StoredOutcome)] = [
            (#"{"phoneNumber":{"phoneNumber":"13800138000","taskId":"a\/b"}}"#, .phoneNumber(phoneNumber: "13800138000", taskId: "a/b", riskScore: nil)),
            (#"{"phoneNumber":{"phoneNumber":"13800138000","riskScore":420}}"#, .phoneNumber(phoneNumber: "13800138000", taskId: nil, riskScore: 420)),
            (#"{"verification":{"result":"mismatch","taskId":null}}"#, .verification(result: .mismatch, taskId: nil)),
            (#"{"failure":{"action":"new_token","carrierCode":"103101","carrierProvider":"cmcc","code":"signature_rejected","message":"m \u00e9"}}"#,
             .failure(code: "signature_rejected", message: "m é", carrierProvider: "cmcc", carrierCode: "103101", carrierMessage: nil, action: "new_token")),
        ]
        for (text, outcome) in entries {
            #expect(StoredOutcome.decode(Array(text.utf8)) == outcome, "\(text)")
        }
    }

    @Test("a replay entry of another shape is no entry, never a crash or a wrong answer")
    func malformedStoredOutcomesAreAbsent() {
        let entries = [
            "", "{}", "[]", "null", #"{"phoneNumber":{}}"#, #"{"phoneNumber":{"phoneNumber":1}}"#,
            #"{"phoneNumber":{"phoneNumber":"1","riskScore":"4"}}"#, #"{"phoneNumber":{"phoneNumber":"1","riskScore":4.5}}"#,
            #"{"verification":{"result":"maybe"}}"#, #"{"failure":{"code":"x"}}"#, #"{"other":{}}"#,
            #"{"phoneNumber":{"phoneNumber":"1"},"verification":{"result":"match"}}"#, #"{"phoneNumber":"13800138000"}"#,
        ]
        for text in entries {
            #expect(StoredOutcome.decode(Array(text.utf8)) == nil, "\(text)")
        }
    }

    @Test("replay-cache entries written before 'action' existed still decode, and replay with the code's default action, not retryable")
    func storedOutcomesWithoutActionDecode() throws {
        let old = Array(#"{"failure":{"carrierCode":"104201","carrierMessage":"expired","carrierProvider":"cmcc","code":"token_invalid","message":"m"}}"#.utf8)
        let outcome = try #require(StoredOutcome.decode(old))
        let error = try #require(outcome.error)
        #expect(error.code == .tokenInvalid && error.action == .newToken && !error.retryable)
        let fallback = StoredOutcome.failure(code: "token_invalid", message: "m", carrierProvider: "cmcc", carrierCode: "103810", carrierMessage: nil,
                                             action: "fallback_sms")
        #expect(StoredOutcome.decode(fallback.encoded())?.error?.action == .fallbackSMS)
    }

    @Test("success bodies: members sorted, absent optionals left out, text escaped as JSON")
    func responsesAreSortedCompactJSON() throws {
        func written(_ value: some JSONObjectWritable) -> String {
            var object = JSONObjectWriter()
            value.writeJSON(into: &object)
            return String(decoding: object.finish(), as: UTF8.self)
        }
        let full = PhoneNumberResponse(requestId: "r-1", appId: "300011111111", provider: "cmcc", phoneNumber: "13800138000",
                                       maskedPhoneNumber: "138****8000", carrierTaskId: "abc", riskScore: 420, replayed: true, reference: "a/\"b")
        #expect(written(full) == #"{"appId":"300011111111","carrierTaskId":"abc","maskedPhoneNumber":"138****8000","phoneNumber":"13800138000","provider":"cmcc","reference":"a/\"b","replayed":true,"requestId":"r-1","riskScore":420}"#)
        let bare = PhoneNumberResponse(requestId: "r-2", appId: "a", provider: "cmcc", phoneNumber: "13800138000",
                                       maskedPhoneNumber: "138****8000", carrierTaskId: nil, riskScore: nil, replayed: false, reference: nil)
        #expect(written(bare) == #"{"appId":"a","maskedPhoneNumber":"138****8000","phoneNumber":"13800138000","provider":"cmcc","replayed":false,"requestId":"r-2"}"#)
        let verify = VerifyResponse(requestId: "r", appId: "a", provider: "cmcc", result: .match, carrierTaskId: nil, replayed: false, reference: nil)
        #expect(written(verify) == #"{"appId":"a","provider":"cmcc","replayed":false,"requestId":"r","result":"match"}"#)
        let awkward = PhoneNumberResponse(requestId: "r", appId: "a", provider: "cmcc", phoneNumber: "1", maskedPhoneNumber: "1",
                                          carrierTaskId: nil, riskScore: nil, replayed: false, reference: Self.awkward)
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(written(awkward).utf8)) as? [String: Any])
        #expect(parsed["reference"] as? String == Self.awkward)
    }

    @Test("the error envelope: sorted members, field and carrier only when known, the contract's shape")
    func errorEnvelopeShape() throws {
        func written(_ error: PassgateError) -> String {
            var object = JSONObjectWriter()
            ErrorEnvelope(error: error, requestId: "r-1").writeJSON(into: &object)
            return String(decoding: object.finish(), as: UTF8.self)
        }
        let invalid = PassgateError(.invalidRequest, .request(field: "token", problem: "missing"), message: "token is missing")
        #expect(written(invalid) == #"{"error":{"action":"fix_request","code":"invalid_request","field":"token","message":"token is missing","requestId":"r-1","retryable":false}}"#)
        let carrier = PassgateError(.tokenInvalid, .carrier(CarrierAnswer(provider: "cmcc", code: "104201", message: "token失效")), message: "m")
        #expect(written(carrier) == #"{"error":{"action":"new_token","carrier":{"code":"104201","message":"token失效","provider":"cmcc"},"code":"token_invalid","message":"m","requestId":"r-1","retryable":false}}"#)
    }

    @Test("a JSON log line starts with ts, level, logger and msg, then sorted metadata, and round-trips every value")
    func logLineShape() throws {
        let sink = MemoryLogSink()
        var logger = Logger(label: "passgate.test") { JSONLogHandler(label: $0, level: .info, sink: sink) }
        logger[metadataKey: "requestId"] = "r-1"
        logger.info("carrier \"call\"", metadata: [
            "zeta": .string(Self.awkward), "alpha": .stringConvertible(42), "msg": "cannot overwrite",
            "ts": "cannot overwrite", "level": "cannot overwrite", "logger": "cannot overwrite",
            "id": "2", "tsx": "3", "levels": "6", "loggers": "7",
            "list": .array(["a", .dictionary(["y": "2", "x": "1"])]),
        ])
        let line = try #require(sink.contents.first)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["msg"] as? String == "carrier \"call\"")
        #expect(object["zeta"] as? String == Self.awkward)
        #expect(object["alpha"] as? String == "42")
        #expect(object["requestId"] as? String == "r-1")
        #expect(object["level"] as? String == "info" && object["logger"] as? String == "passgate.test")
        let list = try #require(object["list"] as? [Any])
        #expect(list.first as? String == "a" && (list.last as? [String: String]) == ["x": "1", "y": "2"])
        let keys = ["\"ts\"", "\"level\"", "\"logger\"", "\"msg\"", "\"alpha\"", "\"list\"", "\"requestId\"", "\"zeta\""]
        let offsets = keys.map { line.range(of: $0)?.lowerBound }
        #expect(!offsets.contains(nil))
        #expect(offsets.compactMap { $0 } == offsets.compactMap { $0 }.sorted(), "key order: \(line)")
        #expect(!line.contains("cannot overwrite"))
        // Keys as long as a reserved one are kept.
        #expect(object["id"] as? String == "2" && object["tsx"] as? String == "3")
        #expect(object["levels"] as? String == "6" && object["loggers"] as? String == "7")
    }

    @Test("a log call's metadata wins over the logger's for the same key, and each key appears once")
    func eventMetadataWins() throws {
        let sink = MemoryLogSink()
        var logger = Logger(label: "passgate.test") { JSONLogHandler(label: $0, level: .info, sink: sink) }
        logger[metadataKey: "client"] = "from-logger"
        logger[metadataKey: "requestId"] = "r-2"
        logger.info("request", metadata: ["client": "from-call", "appId": "300011"])
        let line = try #require(sink.contents.first)
        #expect(line.hasSuffix(#","msg":"request","appId":"300011","client":"from-call","requestId":"r-2"}"#), "\(line)")
        #expect(line.components(separatedBy: "\"client\"").count == 2)
    }

    @Test("an access line handed to the handler with sorted fields is the line swift-log's own path writes, level filter and logger metadata included")
    func sortedFieldsMatchLoggerPath() throws {
        let viaLogger = MemoryLogSink(), direct = MemoryLogSink()
        var logger = Logger(label: "passgate.api") { JSONLogHandler(label: $0, level: .info, sink: viaLogger) }
        var handler = JSONLogHandler(label: "passgate.api", level: .info, sink: direct)
        for (key, value) in [("listener", "api"), ("route", "from-logger")] {
            logger[metadataKey: key] = .string(value)
            handler[metadataKey: key] = .string(value)
        }
        let fields: [(key: String, value: Logger.Metadata.Value)] = [
            ("appId", "300011111111"), ("client", .string(Self.awkward)), ("latencyMs", "0.12"), ("method", "POST"),
            ("requestId", "r-3"), ("route", "/v1/phone-number"), ("status", "200"),
        ]
        logger.info("request", metadata: Logger.Metadata(uniqueKeysWithValues: fields))
        handler.log(level: .info, message: "request", sortedFields: fields)
        handler.log(level: .debug, message: "request", sortedFields: fields)
        #expect(direct.contents.count == 1, "a debug line is below the handler's info level")
        let expected = try #require(viaLogger.contents.first), written = try #require(direct.contents.first)
        // Everything after the timestamp, which differs by the milliseconds between the two calls.
        func tail(_ line: String) -> Substring { line[line.range(of: "\"level\"")!.lowerBound...] }
        #expect(tail(written) == tail(expected))
        #expect(written.contains(#""listener":"api""#) && written.contains(#""route":"/v1/phone-number""#), "\(written)")
    }

    @Test("log timestamps are what Foundation's ISO 8601 format gives, across leap days and year ends")
    func timestamps() {
        let style = Date.ISO8601FormatStyle().year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted)
        let instants: [Int64] = [0, 951_782_400_000, 951_868_799_999, 1_709_164_800_123, 1_735_689_599_999, 4_102_444_800_000, 1_763_750_000_456]
        for milliseconds in instants {
            // Half a millisecond in: Foundation truncates, and x.999 s is not exact as a Double.
            let date = Date(timeIntervalSince1970: (Double(milliseconds) + 0.5) / 1000)
            #expect(LogTimestamp.string(milliseconds: milliseconds) == date.formatted(style), "at \(milliseconds)")
        }
        #expect(LogTimestamp.now(ManualClock(milliseconds: 1_763_750_000_456)) == "2025-11-21T18:33:20.456Z")
    }

    @Test("request latency in log lines has two decimals, rounded")
    func milliseconds() {
        #expect(PassgateMetrics.milliseconds(.nanoseconds(0)) == "0.00")
        #expect(PassgateMetrics.milliseconds(.nanoseconds(1_234_567)) == "1.23")
        #expect(PassgateMetrics.milliseconds(.nanoseconds(1_235_000)) == "1.24")
        #expect(PassgateMetrics.milliseconds(.microseconds(50)) == "0.05")
        #expect(PassgateMetrics.milliseconds(.seconds(12)) == "12000.00")
    }
}

/// ``PassgateMetrics`` keeps its counters and timers instead of asking the registry per request.
@Suite("metrics handles")
struct MetricsHandleTests {
    @Test("repeated series reach the same counter; past the cache bound series are still counted")
    func cachedAndBounded() {
        let registry = PrometheusCollectorRegistry()
        let metrics = PassgateMetrics(factory: PrometheusMetricsFactory(registry: registry))
        for _ in 0..<3 { metrics.recordRequest(route: "/v1/phone-number", method: "POST", status: 200, duration: .milliseconds(2)) }
        // More distinct series than the cache holds (invented methods): each still lands in the registry.
        for index in 0..<1_100 { metrics.recordRequest(route: "unmatched", method: "M\(index)", status: 405, duration: .zero) }
        metrics.recordRequest(route: "unmatched", method: "M1099", status: 405, duration: .zero)
        let text = String(decoding: registry.emitToBuffer(), as: UTF8.self)
        #expect(text.contains(#"passgate_http_requests_total{route="/v1/phone-number",method="POST",status="200"} 3"#), "\(text.prefix(600))")
        #expect(text.contains(#"passgate_http_requests_total{route="unmatched",method="M0",status="405"} 1"#))
        #expect(text.contains(#"passgate_http_requests_total{route="unmatched",method="M1099",status="405"} 2"#))
        // The duration is one series per route, whatever the method and status.
        #expect(text.contains(#"passgate_http_request_duration_seconds_count{route="/v1/phone-number"} 3"#), "\(text.prefix(2000))")
        #expect(text.contains(#"passgate_http_request_duration_seconds_count{route="unmatched"} 1101"#))
    }
}

extension MetricsHandleTests {
    @Test("a provider's carrier series counts outcomes, latency and billable calls; a call of another provider or kind lands in its own series")
    func carrierSeries() {
        let registry = PrometheusCollectorRegistry()
        let metrics = PassgateMetrics(factory: PrometheusMetricsFactory(registry: registry))
        let series = metrics.carrierSeries(provider: "cmcc", operation: .phoneNumber)
        let ok = CarrierCall(provider: "cmcc", operation: .phoneNumber, msgid: "m1", normalizedCode: "ok", billable: true, latencyMs: 12, host: "h")
        series.record(ok)
        series.record(ok)
        var expired = ok
        expired.normalizedCode = "token_expired"
        expired.billable = false
        series.record(expired)
        var other = ok
        other.provider = "jverification"
        other.operation = .verify
        series.record(other)
        let text = String(decoding: registry.emitToBuffer(), as: UTF8.self)
        #expect(text.contains(#"passgate_carrier_outcomes_total{provider="cmcc",operation="phone_number",code="ok"} 2"#), "\(text)")
        #expect(text.contains(#"passgate_carrier_outcomes_total{provider="cmcc",operation="phone_number",code="token_expired"} 1"#))
        #expect(text.contains(#"passgate_carrier_billable_total{provider="cmcc",operation="phone_number"} 2"#))
        #expect(text.contains(#"passgate_carrier_latency_seconds_count{provider="cmcc",operation="phone_number"} 3"#))
        #expect(text.contains(#"passgate_carrier_outcomes_total{provider="jverification",operation="verify",code="ok"} 1"#))
        #expect(text.contains(#"passgate_carrier_billable_total{provider="jverification",operation="verify"} 1"#))
    }
}
