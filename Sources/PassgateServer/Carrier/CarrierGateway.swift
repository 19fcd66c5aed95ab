import PassgateCore
import CoreMetrics
import EventLoopExecution
import Foundation
import Logging
import NIOCore
import NIOPosix
import PassgateAudit
import PassgateConfig
import PassgateState
import Tracing

/// The carrier operations the exchange layer needs. A protocol so the replay cache and single
/// flight wrap it, and tests can count calls.
protocol CarrierGateway: Sendable {
    func phoneNumber(app: AppSettings, token: String, fields: ProviderFields, logger: Logger) async -> CarrierExchange<PhoneNumberOutcome>
    func verify(app: AppSettings, token: String, phoneNumber: String, fields: ProviderFields, logger: Logger) async -> CarrierExchange<VerificationOutcome>
}

/// Calls the app's provider, failing over to the next base URL only when the failure proves the
/// request never left, skipping base URLs whose circuit is open, and capping calls in flight per
/// provider; logs, meters and audits every call. Everything here is the same for every provider:
/// the provider only prepares the call (`CarrierProvider`) and reads its reply.
struct ProviderGateway: CarrierGateway {
    let registry: ProviderRegistry
    let transport: any CarrierTransport
    /// Provider timestamps, call latencies and the breaker's time.
    let clock: any PassgateClock
    let metrics: PassgateMetrics
    let audit: any AuditSink
    /// Whether calls land in the audit log; then a successful call's log line would repeat its
    /// audit line and is written at debug (see `record`).
    let auditsCalls: Bool
    /// Per provider id, everything its calls need, resolved once.
    let lanes: [String: Lane]
    /// A span per provider attempt and per audit write; `nil` with tracing off.
    let tracer: PassgateTracer?
    /// The last hour of calls, for the console's overview.
    let traffic: ConsoleTraffic

    init(
        registry: ProviderRegistry, providers: [String: ProviderSettings], transport: any CarrierTransport, clock: any PassgateClock = SystemClock(),
        metrics: PassgateMetrics, audit: any AuditSink = NoAuditSink(),
        timers: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton, tracer: PassgateTracer? = nil
    ) {
        self.tracer = tracer
        traffic = ConsoleTraffic(clock: clock)
        self.registry = registry
        self.transport = transport
        self.clock = clock
        self.metrics = metrics
        self.audit = audit
        auditsCalls = !(audit is NoAuditSink)
        lanes = providers.mapValues { Lane(provider: $0, metrics: metrics, timers: timers, clock: clock) }
    }

    func phoneNumber(app: AppSettings, token: String, fields: ProviderFields, logger: Logger) async -> CarrierExchange<PhoneNumberOutcome> {
        let prepared: PreparedCall<PhoneNumberOutcome>
        do {
            prepared = try provider(app).phoneNumber(app: app.settings, token: token, context: context(fields))
        } catch {
            return CarrierExchange(call: nil, result: .failure(error))
        }
        let transport = transport.capturingWhenAsked()
        return await withFailover(app: app, operation: .phoneNumber, logger: logger) { endpoint in
            let exchange = await prepared.send(to: endpoint, via: transport, clock: clock)
            return (exchange, (try? exchange.result.get())?.maskedPhoneNumber)
        }
    }

    func verify(app: AppSettings, token: String, phoneNumber: String, fields: ProviderFields, logger: Logger) async -> CarrierExchange<VerificationOutcome> {
        let prepared: PreparedCall<VerificationOutcome>
        do {
            prepared = try provider(app).verify(app: app.settings, token: token, phoneNumber: phoneNumber, context: context(fields))
        } catch {
            return CarrierExchange(call: nil, result: .failure(error))
        }
        let transport = transport.capturingWhenAsked()
        return await withFailover(app: app, operation: .verify, logger: logger) { endpoint in
            (await prepared.send(to: endpoint, via: transport, clock: clock), MSISDN.mask(phoneNumber))
        }
    }

    /// The app's provider; the loader only loads apps of registered providers.
    private func provider(_ app: AppSettings) throws(PassgateError) -> any CarrierProvider {
        guard let provider = registry[app.provider] else { throw .internalError("provider \(app.provider) of app \(app.appId) is not registered") }
        return provider
    }

    /// A fresh id of Passgate's own for the carrier, never the request's id: that one may come
    /// from the caller's `X-Request-Id`, and a caller must not choose what a carrier is sent (an
    /// `exID`/`outId` it echoes, dedups or bills by). The carrier call's log line pairs the two.
    private func context(_ fields: ProviderFields) -> CallContext {
        CallContext(clock: clock, requestId: MessageID.make(), providerFields: fields)
    }

    /// Tries the provider's base URLs for `operation` in order. Moving on is safe only after a
    /// failure that proves nothing was sent (DNS, refused, connect timeout, TLS handshake): the
    /// token is unspent.
    private func withFailover<Value>(
        app: AppSettings, operation: CarrierCall.Operation, logger: Logger, call: (ProviderEndpoint) async -> (CarrierExchange<Value>, String?)
    ) async -> CarrierExchange<Value> {
        guard let lane = lanes[app.provider], !lane.route(operation).endpoints.isEmpty else {
            return CarrierExchange(call: nil, result: .failure(.internalError("provider \(app.provider) has no base URL configured")))
        }
        let route = lane.route(operation), breaker = route.breaker, limiter = lane.limiter
        var last: CarrierExchange<Value>?
        for (index, endpoint) in route.endpoints.enumerated() {
            let permit = breaker.permit(index)
            guard permit != .refused else { continue }
            if await limiter.acquire() == .timedOut {
                // A probe that never left taught nothing: without this the circuit would stay
                // half-open and the URL be skipped until a restart.
                if permit == .probe { breaker.probeNotSent(index) }
                // Not sent, so the next base URL would not help: it shares this provider's cap.
                metrics.recordQueueTimeout(provider: lane.settings.id)
                return Self.callCapReached(lane.settings, host: endpoint.host)
            }
            let span = attemptSpan(app: app, operation: operation, host: endpoint.host, attempt: index + 1)
            let (exchange, masked) = await call(endpoint)
            if let span { Self.end(span, exchange) }
            limiter.release()
            let open = breaker.record(index, failure: Self.isCarrierSideFailure(exchange))
            route.circuitGauges[index].record(open ? 1 : 0)
            let failure: PassgateError? = if case .failure(let error) = exchange.result { error } else { nil }
            record(exchange.call, failure: failure, lane: lane, appId: app.appId, masked: masked, logger: logger)
            last = exchange
            guard case .failure(let error) = exchange.result, case .transport(let failure) = error.reason,
                !failure.kind.mayHaveBeenDelivered, index + 1 < route.endpoints.count
            else { return exchange }
            logger.warning("carrier not reachable, trying the next base URL", metadata: [
                "host": .string(endpoint.host), "failure": .string(failure.kind.rawValue), "next": .string(route.endpoints[index + 1].baseURL),
            ])
        }
        return last ?? Self.allCircuitsOpen(lane.settings, urls: route.urls)
    }

    /// Whether a call says the carrier's side is in trouble, which is what the circuit counts: the
    /// exchange failed, an error page came back (HTML, or a 5xx status, even one carrying a
    /// protocol answer). A carrier answering with one of its own codes is healthy, whatever the code.
    static func isCarrierSideFailure<Value>(_ exchange: CarrierExchange<Value>) -> Bool {
        if let status = exchange.call?.httpStatus, status >= 500 { return true }
        guard case .failure(let error) = exchange.result else { return false }
        switch error.reason {
        case .transport: return true
        case .reply(let problem): return problem.isServerFailure
        default: return false
        }
    }

    /// Every base URL's circuit is open: fail fast, nothing sent.
    static func allCircuitsOpen<Value>(_ provider: ProviderSettings, urls: [String]) -> CarrierExchange<Value> {
        let hosts = urls.map { ProviderEndpoint(baseURL: $0).host }.joined(separator: ", ")
        let failure = TransportFailure(kind: .notStarted, detail: "circuit open for every base URL", host: hosts)
        return CarrierExchange(call: nil, result: .failure(PassgateError(
            .carrierUnavailable, .transport(failure),
            message: "The carrier at \(hosts) failed \(provider.circuitFailureThreshold) times in a row; Passgate pauses calls to it for up to \(provider.circuitOpenMs / 1000)s. The request was not sent; retrying with the same token is safe."
        )))
    }

    /// Every slot of the provider's call cap stayed taken for the whole queue wait: the carrier
    /// answers slower than requests arrive. Nothing sent.
    static func callCapReached<Value>(_ provider: ProviderSettings, host: String) -> CarrierExchange<Value> {
        let cap = "providers.\(provider.id).maxConcurrentCalls", wait = "providers.\(provider.id).callQueueTimeoutMs"
        let failure = TransportFailure(
            kind: .notStarted, detail: "call cap reached: \(provider.maxConcurrentCalls) calls in flight, no slot within \(provider.callQueueTimeoutMs) ms", host: host)
        let waited = provider.callQueueTimeoutMs > 0
            ? "none finished within \(provider.callQueueTimeoutMs) ms (\(wait))" : "\(wait) is 0, so requests do not wait for a slot"
        var error = PassgateError(
            .carrierUnavailable, .transport(failure),
            message: "Passgate already has \(provider.maxConcurrentCalls) calls to \(provider.id) in flight (\(cap)) and \(waited): the carrier is answering slower than requests arrive. The request was not sent; retrying with the same token is safe."
        )
        error.retryAfterSeconds = 1
        return CarrierExchange(call: nil, result: .failure(error))
    }

    /// Base URLs whose circuit is not closed, per provider (for `/readyz`).
    var openCircuits: [String] { lanes.values.flatMap(\.openURLs).sorted() }

    /// One line per carrier call: what billing reconciliation and on-call need, no token, masked number;
    /// one audit record (no number at all); and the console's count of it (`failure`: what the
    /// caller was told, for the overview's meaning of each code). The request's id and client come from the logger
    /// the controller made for this request.
    ///
    /// The line is at info for every call that did not succeed, and for every call when the audit
    /// log is off. A success that the audit log records is at debug: its audit line already holds
    /// every field but the masked number, which the request's own line carries, and a second info
    /// line per request would cost more CPU than the rest of Passgate's own work on it.
    ///
    /// All three once the request's answer is on the wire (``AfterAnswer``): none of them changes it.
    private func record(_ call: CarrierCall?, failure: PassgateError?, lane: Lane, appId: String, masked: String?, logger: Logger) {
        guard let call else { return }
        let audit = audit, traffic = traffic, level: Logger.Level = call.normalizedCode == "ok" && auditsCalls ? .debug : .info
        let finished = clock.nowMilliseconds()
        let auditSpan = auditsCalls ? tracer?.childSpan("audit.write") : nil
        AfterAnswer.schedule {
            lane.series(call.operation).record(call)
            traffic.record(call, appId: appId, failure: failure)
            audit.record(AuditRecord(
                timeMilliseconds: finished, requestId: logger[metadataKey: "requestId"]?.description ?? "-", client: logger[metadataKey: "client"]?.description ?? "-",
                appId: appId, call: call, traceId: logger[metadataKey: "traceId"]?.description
            ))
            auditSpan?.end()
            // The metadata is an autoclosure: not built at all when the level is filtered out.
            logger.log(level: level, "carrier call", metadata: Self.lineMetadata(call, masked: masked))
        }
    }

    private static func lineMetadata(_ call: CarrierCall, masked: String?) -> Logger.Metadata {
        var metadata: Logger.Metadata = [
            "provider": .string(call.provider), "operation": .string(call.operation.rawValue), "msgid": .string(call.msgid),
            "rawCode": .string(call.rawCode ?? "-"), "code": .string(call.normalizedCode), "billable": .stringConvertible(call.billable),
            "latencyMs": .string(PassgateMetrics.milliseconds(.nanoseconds(Int64(call.latencyMs * 1_000_000)))), "host": .string(call.host),
        ]
        if let taskId = call.taskId { metadata["taskId"] = .string(taskId) }
        if let status = call.httpStatus { metadata["httpStatus"] = .stringConvertible(status) }
        if let masked { metadata["phone"] = .string(masked) }
        return metadata
    }
}
