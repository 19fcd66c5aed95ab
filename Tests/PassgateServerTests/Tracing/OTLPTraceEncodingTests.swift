import OpenSSLCrypto
import Testing

@testable import PassgateServer

/// The hand-written protobuf writer against bytes that opentelemetry-proto's own Python classes
/// produce for the same request (`ExportTraceServiceRequest.SerializeToString()`).
@Suite("tracing: OTLP protobuf encoding")
struct OTLPTraceEncodingTests {
    static let span = FinishedSpan(
        traceId: TraceID(high: 0x0102_0304_0506_0708, low: 0x090A_0B0C_0D0E_0F10), spanId: 0xA1A2_A3A4_A5A6_A7A8, parentSpanId: 9, traceState: "k=v",
        name: "POST /v1/phone-number", kind: .server, startNanoseconds: 1_700_000_000_000_000_000, endNanoseconds: 1_700_000_000_001_000_000,
        attributes: [("s", .string("")), ("n", .int(-2)), ("b", .bool(false)), ("d", .double(0.5))], error: (true, "carrier_error"))

    /// Made with opentelemetry-proto 1.x (scripts/trace-check installs it): the request above,
    /// with resource `service.name=passgate` and scope `passgate` version `1`.
    static let expected =
        "0ad6010a1c0a1a0a0c736572766963652e6e616d65120a0a08706173736761746512b5010a0d0a08706173736761746512013112a3010a100102030405060708090a0b0c0d0e0f10"
        + "1208a1a2a3a4a5a6a7a81a036b3d76220800000000000000092a15504f5354202f76312f70686f6e652d6e756d62657230023900002a36fe9c97174140423936fe9c9717"
        + "4a070a017312020a004a100a016e120b18feffffffffffffffff014a070a0162120210004a0e0a0164120921000000000000e03f7a11120d636172726965725f6572726f72"
        + "1802850100030000"

    @Test("an export request encodes to the same bytes as opentelemetry-proto's")
    func knownBytes() {
        let bytes = OTLPTraceEncoding.request([Self.span], resource: [("service.name", .string("passgate"))], scopeVersion: "1")
        #expect(Hex.lowercase(bytes) == Self.expected)
    }

    @Test("varints: one byte below 128, seven bits a byte above")
    func varints() {
        var writer = ProtobufWriter()
        writer.varint(1)
        writer.varint(127)
        writer.varint(128)
        writer.varint(300)
        writer.varint(UInt64.max)
        #expect(writer.bytes == [1, 127, 0x80, 1, 0xAC, 2, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 1])
    }

    @Test("fields at their default are left out, except a oneof member")
    func defaults() {
        var writer = ProtobufWriter()
        writer.varint(3, 0)
        writer.string(1, "")
        writer.fixed64(7, 0)
        #expect(writer.bytes.isEmpty)
        writer.varint(2, 0, always: true)
        #expect(writer.bytes == [0x10, 0])
    }
}
