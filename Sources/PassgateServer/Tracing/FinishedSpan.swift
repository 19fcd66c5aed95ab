import Tracing

/// A span once ended: what an exporter sends and what a test reads. Plain values only: no
/// token, number or secret is ever set on a span (docs/monitoring.md, "Tracing").
public struct FinishedSpan: Sendable, Equatable {
    /// An attribute's value, as OTLP's `AnyValue` carries it.
    public enum Value: Sendable, Equatable {
        case string(String)
        case int(Int64)
        case double(Double)
        case bool(Bool)
    }

    /// OTLP's span kinds Passgate makes.
    public enum Kind: Int, Sendable {
        case `internal` = 1, server = 2, client = 3
    }

    public var traceId: TraceID
    public var spanId: UInt64
    public var parentSpanId: UInt64?
    /// The caller's `tracestate`, passed on unchanged.
    public var traceState: String?
    public var name: String
    public var kind: Kind
    public var startNanoseconds: UInt64
    public var endNanoseconds: UInt64
    /// In the order they were set.
    public var attributes: [(key: String, value: Value)]
    /// `nil`: unset; otherwise OK (`false`) or error (`true`) with a message.
    public var error: (isError: Bool, message: String?)?

    /// The attribute `key`, if set.
    public subscript(key: String) -> Value? { attributes.first { $0.key == key }?.value }

    public static func == (lhs: FinishedSpan, rhs: FinishedSpan) -> Bool {
        lhs.traceId == rhs.traceId && lhs.spanId == rhs.spanId && lhs.parentSpanId == rhs.parentSpanId && lhs.traceState == rhs.traceState
            && lhs.name == rhs.name && lhs.kind == rhs.kind && lhs.startNanoseconds == rhs.startNanoseconds
            && lhs.endNanoseconds == rhs.endNanoseconds && lhs.attributes.elementsEqual(rhs.attributes) { $0 == $1 }
            && lhs.error?.isError == rhs.error?.isError && lhs.error?.message == rhs.error?.message
    }
}

extension FinishedSpan.Value {
    /// A swift-distributed-tracing attribute as OTLP carries it; arrays are written as their description.
    init(_ attribute: SpanAttribute) {
        switch attribute {
        case .string(let value): self = .string(value)
        case .int32(let value): self = .int(Int64(value))
        case .int64(let value): self = .int(value)
        case .double(let value): self = .double(value)
        case .bool(let value): self = .bool(value)
        case .stringConvertible(let value): self = .string(value.description)
        default: self = .string(String(describing: attribute))
        }
    }
}

/// Where ended spans go: the OTLP exporter, or a test's memory.
public protocol SpanSink: Sendable {
    /// Takes a sampled span once it ends; must not block (it runs on the request's path).
    func finished(_ span: FinishedSpan)
}
