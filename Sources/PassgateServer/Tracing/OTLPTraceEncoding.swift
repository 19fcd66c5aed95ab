/// `ExportTraceServiceRequest` (opentelemetry-proto, `collector/trace/v1`) in protobuf's binary
/// encoding, for OTLP/HTTP's `application/x-protobuf`: one resource (the service's name and
/// instance), one scope (`passgate`), the spans. Field numbers as in `trace/v1/trace.proto`,
/// `common/v1/common.proto` and `resource/v1/resource.proto`.
enum OTLPTraceEncoding {
    /// The resource's attributes: `service.name`, and whatever else identifies the instance.
    static func request(_ spans: [FinishedSpan], resource: [(key: String, value: FinishedSpan.Value)], scopeVersion: String) -> [UInt8] {
        var writer = ProtobufWriter(capacity: 256 * spans.count + 128)
        writer.message(1) { resourceSpans in  // ExportTraceServiceRequest.resource_spans
            resourceSpans.message(1) { resourceMessage in  // ResourceSpans.resource
                for attribute in resource { resourceMessage.message(1) { keyValue(&$0, attribute) } }  // Resource.attributes
            }
            resourceSpans.message(2) { scopeSpans in  // ResourceSpans.scope_spans
                scopeSpans.message(1) { scope in  // ScopeSpans.scope: InstrumentationScope
                    scope.string(1, "passgate")
                    scope.string(2, scopeVersion)
                }
                for span in spans { scopeSpans.message(2) { self.span(&$0, span) } }  // ScopeSpans.spans
            }
        }
        return writer.bytes
    }

    /// `Span`.
    static func span(_ writer: inout ProtobufWriter, _ span: FinishedSpan) {
        writer.bytes(1, span.traceId.bytes)
        writer.bytes(2, TraceParent.bytes(span.spanId))
        if let state = span.traceState { writer.string(3, state) }
        if let parent = span.parentSpanId { writer.bytes(4, TraceParent.bytes(parent)) }
        writer.string(5, span.name)
        writer.varint(6, UInt64(span.kind.rawValue))
        writer.fixed64(7, span.startNanoseconds)
        writer.fixed64(8, span.endNanoseconds)
        for attribute in span.attributes { writer.message(9) { keyValue(&$0, attribute) } }
        if let status = span.error {
            writer.message(15) { message in  // Status
                if let text = status.message { message.string(2, text) }
                message.varint(3, status.isError ? 2 : 1)  // STATUS_CODE_ERROR : STATUS_CODE_OK
            }
        }
        // Span.flags: bit 8 says whether the parent is remote is known; bit 9 whether it is.
        writer.fixed32(16, 0x100 | (span.kind == .server && span.parentSpanId != nil ? 0x200 : 0))
    }

    /// `KeyValue` with its `AnyValue`.
    static func keyValue(_ writer: inout ProtobufWriter, _ attribute: (key: String, value: FinishedSpan.Value)) {
        writer.string(1, attribute.key)
        writer.message(2) { value in
            switch attribute.value {
            case .string(let text): value.string(1, text, always: true)
            case .bool(let flag): value.varint(2, flag ? 1 : 0, always: true)
            case .int(let number): value.varint(3, UInt64(bitPattern: number), always: true)
            case .double(let number): value.fixed64(4, number.bitPattern, always: true)
            }
        }
    }
}
