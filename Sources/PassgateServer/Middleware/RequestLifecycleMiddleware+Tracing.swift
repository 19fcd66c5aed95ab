import HTTPTypes
import PassgateCore
import Hummingbird
import Tracing

extension RequestLifecycleMiddleware {
    /// Whether a request gets a span: the v1 operations, not the health checks, which a load
    /// balancer asks every few seconds and which would only crowd the traces out.
    static func isTraced(_ path: String) -> Bool { path.utf8.starts(with: "/v1/".utf8) }

    /// The request's server span when its trace is recorded (nil otherwise), and its trace id
    /// either way: a child of the caller's `traceparent` when it is valid, the root of a new trace
    /// otherwise. Named for the method and path until the route is known.
    static func serverSpan(_ tracer: PassgateTracer, request: Request, requestId: String) -> (span: PassgateSpan?, traceId: TraceID) {
        let remote = TraceParent(header: request.headers[.traceparent]).map {
            RemoteParent(parent: $0, traceState: TraceParent.traceState(request.headers[.tracestate]))
        }
        let (span, traceId) = tracer.serverSpan("\(request.method.rawValue) \(request.uri.path)", remote: remote)
        if let span {
            span.attributes["http.request.method"] = request.method.rawValue
            span.attributes["passgate.request_id"] = requestId
        }
        return (span, traceId)
    }

    /// Ends the server span with what the request turned out to be: its route (the span's name
    /// too, as OpenTelemetry names server spans), status, client, app and error code. Only a 5xx
    /// marks the span failed: a 4xx is the caller's mistake, answered correctly.
    static func end(_ span: PassgateSpan, method: String, route: String, status: Int, failure: PassgateError?, facts: RequestFacts) {
        guard span.isRecording else { return span.end() }
        span.operationName = "\(method) \(route)"
        span.updateAttributes { attributes in
            attributes["http.route"] = route
            attributes["http.response.status_code"] = status
            if let client = facts.clientId { attributes["passgate.client"] = client }
            if let appId = facts.appId { attributes["passgate.app_id"] = appId }
            if let failure { attributes["passgate.code"] = failure.code.rawValue }
        }
        if status >= 500 { span.setStatus(SpanStatus(code: .error, message: failure?.code.rawValue)) }
        span.end()
    }
}

extension HTTPField.Name {
    /// W3C trace context's headers, made once rather than validated per request.
    static let traceparent = HTTPField.Name("traceparent")!
    static let tracestate = HTTPField.Name("tracestate")!
}
