/// The protobuf wire format, as much of it as OTLP's trace messages need: varints, fixed 64-bit
/// values, and length-delimited fields (strings, bytes, nested messages). Fields at their
/// default value are left out, as protobuf encoders do.
struct ProtobufWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    private enum WireType: UInt64 {
        case varint = 0, fixed64 = 1, lengthDelimited = 2, fixed32 = 5
    }

    private mutating func tag(_ field: UInt64, _ type: WireType) { varint(field << 3 | type.rawValue) }

    mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    /// A `uint64`/`int64`/`enum`/`bool` field (negative `int64`s take ten bytes, as in protobuf).
    /// `always`: written even at 0, as a `oneof` member must be (its presence is the choice).
    mutating func varint(_ field: UInt64, _ value: UInt64, always: Bool = false) {
        guard value != 0 || always else { return }
        tag(field, .varint)
        varint(value)
    }

    mutating func fixed64(_ field: UInt64, _ value: UInt64, always: Bool = false) {
        guard value != 0 || always else { return }
        tag(field, .fixed64)
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    mutating func fixed32(_ field: UInt64, _ value: UInt32) {
        guard value != 0 else { return }
        tag(field, .fixed32)
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    mutating func bytes(_ field: UInt64, _ value: [UInt8], always: Bool = false) {
        guard !value.isEmpty || always else { return }
        tag(field, .lengthDelimited)
        varint(UInt64(value.count))
        bytes.append(contentsOf: value)
    }

    mutating func string(_ field: UInt64, _ value: String, always: Bool = false) { bytes(field, Array(value.utf8), always: always) }

    /// A nested message, written whole (even when empty: presence matters for a message field).
    mutating func message(_ field: UInt64, _ body: (inout ProtobufWriter) -> Void) {
        var nested = ProtobufWriter()
        body(&nested)
        tag(field, .lengthDelimited)
        varint(UInt64(nested.bytes.count))
        bytes.append(contentsOf: nested.bytes)
    }
}
