import OpenSSLCrypto

/// A trace's 16-byte id, as two big-endian halves: no buffer to allocate per request.
public struct TraceID: Hashable, Sendable {
    public var high: UInt64
    public var low: UInt64

    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// 32 lowercase hex digits, as `traceparent` and log lines write it.
    public var hex: String { TraceParent.hex(high) + TraceParent.hex(low) }

    /// The 16 bytes, for OTLP.
    var bytes: [UInt8] { TraceParent.bytes(high) + TraceParent.bytes(low) }
}

/// The W3C `traceparent` header (Trace Context, level 1): version, trace id, parent span id and flags.
///
/// Parsing is strict, because a malformed header must never become a broken trace: lowercase hex
/// only, ids not all zeros, version `ff` refused, and version `00` exactly 55 characters. A later
/// version is read as `00` when its first four fields are well formed, as the recommendation
/// says. Whatever fails starts a new trace; it is never a request error.
public struct TraceParent: Equatable, Sendable {
    public var traceId: TraceID
    /// The caller's span: the parent of Passgate's server span.
    public var spanId: UInt64
    /// Bit 0 is `sampled`; the other bits are kept but mean nothing to Passgate.
    public var flags: UInt8

    public init(traceId: TraceID, spanId: UInt64, flags: UInt8) {
        self.traceId = traceId
        self.spanId = spanId
        self.flags = flags
    }

    /// Whether the caller recorded its span (the `sampled` flag).
    public var sampled: Bool { flags & 1 == 1 }

    /// `nil` for an absent or malformed header.
    public init?(header: String?) {
        guard var header else { return nil }
        let parsed: TraceParent? = header.withUTF8 { bytes in
            guard bytes.count >= 55, let version = Self.hexByte(bytes, 0), version != 0xFF,
                bytes[2] == 0x2D, bytes[35] == 0x2D, bytes[52] == 0x2D
            else { return nil }
            // Version 00 has exactly these fields; a later one may add more after a dash.
            if version == 0 ? bytes.count != 55 : (bytes.count > 55 && bytes[55] != 0x2D) { return nil }
            guard let high = Self.hex64(bytes, 3), let low = Self.hex64(bytes, 19), let span = Self.hex64(bytes, 36),
                let flags = Self.hexByte(bytes, 53), high != 0 || low != 0, span != 0
            else { return nil }
            return TraceParent(traceId: TraceID(high: high, low: low), spanId: span, flags: flags)
        }
        guard let parsed else { return nil }
        self = parsed
    }

    /// `00-<trace id>-<span id>-<flags>`.
    public var header: String { "00-\(traceId.hex)-\(Self.hex(spanId))-\(flags & 1 == 1 ? "01" : "00")" }

    /// A `tracestate` value worth passing on: at most 512 bytes of printable ASCII in at most 32
    /// list members (W3C limits); `nil` otherwise, since a vendor's state is opaque to Passgate and
    /// a broken one is dropped rather than repaired.
    public static func traceState(_ header: String?) -> String? {
        guard let header, !header.isEmpty, header.utf8.count <= 512,
            header.utf8.allSatisfy({ (0x20...0x7E).contains($0) }),
            header.utf8.lazy.filter({ $0 == 0x2C }).count < 32
        else { return nil }
        return header
    }

    // MARK: Hex

    private static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x61...0x66: byte - 0x61 + 10
        default: nil  // uppercase is invalid in traceparent
        }
    }

    private static func hexByte(_ bytes: UnsafeBufferPointer<UInt8>, _ at: Int) -> UInt8? {
        guard let high = nibble(bytes[at]), let low = nibble(bytes[at + 1]) else { return nil }
        return high << 4 | low
    }

    private static func hex64(_ bytes: UnsafeBufferPointer<UInt8>, _ at: Int) -> UInt64? {
        var value: UInt64 = 0
        for index in at..<(at + 16) {
            guard let digit = nibble(bytes[index]) else { return nil }
            value = value << 4 | UInt64(digit)
        }
        return value
    }

    static func hex(_ value: UInt64) -> String { Hex.lowercase(bytes(value)) }

    static func bytes(_ value: UInt64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: value >> UInt64(56 - 8 * $0)) }
    }
}
