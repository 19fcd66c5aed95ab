import PassgateCore
import CoreMetrics
import EventLoopExecution
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import Tracing

/// Gives every request an id, turns every error into the JSON envelope, and writes the one
/// access-log line and request metrics per request. One middleware, because all three need
/// the same request id and the final status.
struct RequestLifecycleMiddleware: RouterMiddleware {
    typealias Context = PassgateRequestContext

    let logger: Logger
    let metrics: PassgateMetrics
    /// This listener's routes, to tell an unknown path (404) from a known one asked with another method (405).
    let allowed: AllowedMethods
    /// Passgate's own handler behind `logger`, when it is one: the access line then goes to it
    /// with its fields already in order, without a `Logger.Metadata` dictionary per request.
    private let lineWriter: JSONLogHandler?
    /// Times each request.
    private let clock: any PassgateClock
    /// Starts each request's server span; `nil` with tracing off, and then nothing else is done for tracing.
    private let tracer: PassgateTracer?

    init(logger: Logger, metrics: PassgateMetrics, allowed: AllowedMethods, clock: any PassgateClock = SystemClock(), tracer: PassgateTracer? = nil) {
        self.clock = clock
        self.tracer = tracer
        self.logger = logger
        self.metrics = metrics
        self.allowed = allowed
        lineWriter = logger.handler as? JSONLogHandler
    }

    // `@concurrent`: Hummingbird's protocol is compiled without NonisolatedNonsendingByDefault, so
    // its `next` is a concurrent function, which this package's default would not match.
    func handle(_ request: Request, context: Context, next: @concurrent (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        context.requestId = Self.requestId(from: request.headers.joinedValue(of: .requestID))
        let started = clock.monotonicNow()
        metrics.inFlight.increment()
        defer { metrics.inFlight.decrement() }
        let response: Response
        var failure: PassgateError?
        if let tracer, Self.isTraced(request.uri.path) {
            let (span, traceId) = Self.serverSpan(tracer, request: request, requestId: context.requestId)
            context.span = span
            context.traceId = traceId.hex
        }
        do {
            var answered: Response
            if let span = context.span {
                answered = try await ServiceContext.$current.withValue(span.context) { try await next(request, context) }
            } else {
                answered = try await next(request, context)
            }
            answered.headers[.requestID] = context.requestId
            response = answered
        } catch {
            var mapped = PassgateError.from(error)
            let allow = mapped.code == .notFound ? allowed.allow(request.uri.path) : nil
            if let allow {
                mapped = PassgateError(
                    .methodNotAllowed, .request(field: nil, problem: "\(request.method.rawValue) on \(request.uri.path); allowed: \(allow)"),
                    message: "\(request.uri.path) does not accept \(request.method.rawValue); it accepts \(allow) (see the Allow header and openapi.yaml).")
            }
            failure = mapped
            var answered = try mapped.response(from: request, context: context)
            if let allow { answered.headers[.allow] = allow }
            response = answered
        }
        let route = context.endpointPath ?? "unmatched"
        let elapsed = clock.monotonicNow() - started
        let status = response.status.code
        if let span = context.span {
            Self.end(span, method: request.method.rawValue, route: route, status: status, failure: failure, facts: context.facts)
        }
        // Once the answer is on the wire: neither changes it (AfterAnswer).
        AfterAnswer.schedule { [self, context, failure] in
            metrics.recordRequest(route: route, method: request.method.rawValue, status: status, duration: elapsed)
            log(request: request, context: context, route: route, status: status, elapsed: elapsed, failure: failure)
        }
        return response
    }

    private func log(request: Request, context: Context, route: String, status: Int, elapsed: Duration, failure: PassgateError?) {
        let level: Logger.Level = failure?.code == .internalError ? .error : (status >= 500 ? .warning : .info)
        guard level >= logger.logLevel else { return }
        // In key order, as every log line sorts its metadata.
        var fields: [(key: String, value: Logger.Metadata.Value)] = []
        fields.reserveCapacity(12)
        if let appId = context.facts.appId { fields.append(("appId", .string(appId))) }
        // The reason and cause hold only request facts and carrier codes, never tokens or secrets.
        if let underlying = failure?.underlying { fields.append(("cause", .string(String(describing: underlying)))) }
        if let clientId = context.facts.clientId { fields.append(("client", .string(clientId))) }
        if let failure { fields.append(("code", .string(failure.code.rawValue))) }
        fields.append(("latencyMs", .string(PassgateMetrics.milliseconds(elapsed))))
        fields.append(("method", .string(request.method.rawValue)))
        if let phone = context.facts.maskedPhone { fields.append(("phone", .string(phone))) }
        if let failure { fields.append(("reason", .string(failure.reason.description))) }
        fields.append(("requestId", .string(context.requestId)))
        fields.append(("route", .string(route)))
        fields.append(("status", .string(String(status))))
        if let traceId = context.traceId { fields.append(("traceId", .string(traceId))) }
        if let lineWriter {
            lineWriter.log(level: level, message: "request", sortedFields: fields)
        } else {
            logger.log(level: level, "request", metadata: Logger.Metadata(fields, uniquingKeysWith: { first, _ in first }))
        }
    }

    /// Keeps a caller's id when it is short and plain (no log injection), else makes one.
    static func requestId(from header: String?) -> String {
        if let header, (1...128).contains(header.utf8.count),
            header.utf8.allSatisfy({ (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0) || $0 == 45 || $0 == 95 || $0 == 46 || $0 == 58 })
        {
            return header
        }
        return MessageID.make()
    }
}
