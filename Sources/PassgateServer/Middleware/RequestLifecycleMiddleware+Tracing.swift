import HTTPTypes
import PassgateCore
import Hummingbird
import Tracing

extension RequestLifecycleMiddleware {
    /// Whether a request gets a span: the v1 operations, not the health checks, which a load
    /// balancer asks every few seconds and which would only crowd the traces out.
    static func isTraced(_ path: String) -> Bool { path.utf8.starts(with: "/v1/".utf8) }

    /// The request's server span: a child of the caller's `traceparent` when it is valid, the
    /// root of a new trace otherwise. Named for the method and path until the route is known.
    static func serverSpan(_ tracer: PassgateTracer, request: Request, requestId: String) -> PassgateSpan {
        var context = ServiceContext.topLevel
        tracer.extract(request.headers, into: &context, using: HTTPFieldsTraceExtractor())
        let span = tracer.startSpan("\(request.method.rawValue) \(request.uri.path)", context: context, ofKind: .server)
        if span.isRecording {
            span.attributes["http.request.method"] = request.method.rawValue
            span.attributes["passgate.request_id"] = requestId
        }
        return span
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

/// Reads trace headers from a request's fields.
struct HTTPFieldsTraceExtractor: Extractor {
    func extract(key: String, from fields: HTTPFields) -> String? {
        guard let name = HTTPField.Name(key) else { return nil }
        return fields[name]
    }
}
