import CarrierKit
import Foundation
import Logging
import Testing

@testable import PassgateServer

/// The hand-written encoders that replaced Foundation on the per-request path (bench/PROFILE.md)
/// must write what Foundation wrote, or at least valid JSON with the same content.
@Suite("hot path: hand-written JSON, log lines and timestamps")
struct HotPathEncodingTests {
    static let awkward = "quote \" backslash \\ slash / newline \n tab \t cr \r bell \u{07} unit \u{1F} 中文 é 😀"

    @Test("success bodies are byte for byte what JSONEncoder with sorted keys writes, with and without optionals")
    func responsesMatchJSONEncoder() throws {
        let phones = [
            PhoneNumberResponse(requestId: "r-1", appId: "300011111111", provider: "cmcc", phoneNumber: "13800138000",
                                maskedPhoneNumber: "138****8000", carrierTaskId: "abc", replayed: true, reference: Self.awkward),
            PhoneNumberResponse(requestId: "r-2", appId: "300011111111", provider: "cmcc", phoneNumber: "13800138000",
                                maskedPhoneNumber: "138****8000", carrierTaskId: nil, replayed: false, reference: nil),
        ]
        for phone in phones {
            var object = JSONObjectBytes()
            phone.writeJSON(into: &object)
            #expect(String(decoding: object.finish(), as: UTF8.self) == String(decoding: try JSONBody.encoder.encode(phone), as: UTF8.self))
        }
        for result in VerificationResult.allCases {
            for (taskId, reference) in [("t", Self.awkward), (nil, nil)] as [(String?, String?)] {
                let verify = VerifyResponse(requestId: "r", appId: "300011111111", provider: "cmcc", result: result,
                                            carrierTaskId: taskId, replayed: taskId == nil, reference: reference)
                var object = JSONObjectBytes()
                verify.writeJSON(into: &object)
                #expect(String(decoding: object.finish(), as: UTF8.self) == String(decoding: try JSONBody.encoder.encode(verify), as: UTF8.self))
            }
        }
    }

    @Test("a JSON log line starts with ts, level, logger and msg, then sorted metadata, and round-trips every value")
    func logLineShape() throws {
        let sink = MemoryLogSink()
        var logger = Logger(label: "passgate.test") { JSONLogHandler(label: $0, level: .info, sink: sink) }
        logger[metadataKey: "requestId"] = "r-1"
        logger.info("carrier \"call\"", metadata: [
            "zeta": .string(Self.awkward), "alpha": .stringConvertible(42), "msg": "cannot overwrite",
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
        #expect(LogTimestamp.now().count == 24)
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
