import Tracing

/// The ids a span hands its children through `ServiceContext`.
struct SpanIdentity: Sendable, Equatable {
    var traceId: TraceID
    var spanId: UInt64
    var sampled: Bool
    var traceState: String?
}

/// The key under which a span's identity travels in a `ServiceContext`.
enum SpanIdentityKey: ServiceContextKey {
    typealias Value = SpanIdentity
    static var nameOverride: String? { "passgate-span" }
}

/// A caller's `traceparent` and `tracestate`, before Passgate's server span exists.
struct RemoteParent: Sendable, Equatable {
    var parent: TraceParent
    var traceState: String?
}

/// The incoming parent travels under this key from `extract` to the server span.
enum RemoteParentKey: ServiceContextKey {
    typealias Value = RemoteParent
    static var nameOverride: String? { "traceparent" }
}

extension ServiceContext {
    /// The span this context belongs to, when one was started through ``PassgateTracer``.
    var spanIdentity: SpanIdentity? {
        get { self[SpanIdentityKey.self] }
        set { self[SpanIdentityKey.self] = newValue }
    }

    /// A caller's `traceparent`, read by ``PassgateTracer/extract(_:into:using:)``.
    var remoteParent: RemoteParent? {
        get { self[RemoteParentKey.self] }
        set { self[RemoteParentKey.self] = newValue }
    }
}
