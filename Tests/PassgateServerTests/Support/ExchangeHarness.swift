import PassgateCore
import Logging
import NIOCore
import NIOEmbedded
import PassgateConfig
import PassgateState
import Prometheus
import Synchronization
import Testing

@testable import PassgateServer

/// The memory store seen by several exchanges as one store shared between instances (what
/// Redis is), on the same manual clock as their event loop. It reports every operation as it
/// happens, and fails the operations a test names.
final class ObservedStore: ExchangeStateStore {
    enum Operation: String, Sendable { case get, claim, renew, settle, release }

    struct Event: Sendable, CustomStringConvertible {
        var operation: Operation
        var owner: String?
        /// What the operation answered (`claimed`, `held`, `abandoned`, `stored`, `true`, `kept`, …) or `failed`.
        var answer: String
        var description: String { "\(operation.rawValue)(\(owner ?? "-")) -> \(answer)" }
    }

    let inner: MemoryStateStore
    let loop: NIOAsyncTestingEventLoop
    private let events = Mutex<[Event]>([])
    /// Operations that throw `.unavailable` until the test clears them.
    let failing = Mutex<Set<Operation>>([])

    init(loop: NIOAsyncTestingEventLoop) {
        self.loop = loop
        inner = MemoryStateStore(clock: EventLoopTestClock(loop: loop))
    }

    var isShared: Bool { true }
    var all: [Event] { events.withLock { $0 } }
    func count(_ operation: Operation) -> Int { all.filter { $0.operation == operation }.count }

    /// Waits until an event after the first `seen` satisfies `matching`, running the loop's due
    /// tasks (never moving its time) meanwhile, so a task scheduled for a point already passed
    /// still runs. Returns the index after that event.
    @discardableResult
    func next(after seen: Int, _ matching: (Event) -> Bool = { _ in true }, sourceLocation: SourceLocation = #_sourceLocation) async -> Int {
        for attempt in 0..<100_000 {
            let found = events.withLock { events in events.indices.dropFirst(seen).first { matching(events[$0]) } }
            if let found { return found + 1 }
            await loop.run()
            await Self.breathe(after: attempt)
        }
        Issue.record("no matching state store event after \(seen): \(all)", sourceLocation: sourceLocation)
        return seen
    }

    /// Between two looks for an event: a bare yield for the first hundred (the event is usually a
    /// hop away), then a millisecond, so that a test waiting long does not take a core from the
    /// tests running beside it. Never a bound on the test: the loop's time does not move.
    static func breathe(after attempt: Int) async {
        if attempt < 100 { await Task.yield() } else { try? await Task.sleep(for: .milliseconds(1)) }
    }

    private func record(_ operation: Operation, _ owner: String?, _ answer: String) {
        events.withLock { $0.append(Event(operation: operation, owner: owner, answer: answer)) }
    }

    private func check(_ operation: Operation, _ owner: String?) throws(StateStoreError) {
        guard failing.withLock({ $0.contains(operation) }) else { return }
        record(operation, owner, "failed")
        throw StateStoreError(.unavailable, "test: \(operation.rawValue) fails")
    }

    func get(_ key: String) async throws(StateStoreError) -> [UInt8]? {
        try check(.get, nil)
        let value = try await inner.get(key)
        record(.get, nil, value == nil ? "miss" : "hit")
        return value
    }

    func settle(_ key: String, value: [UInt8], ttlMs: Int, owner: String?) async throws(StateStoreError) -> [UInt8]? {
        try check(.settle, owner)
        let kept = try await inner.settle(key, value: value, ttlMs: ttlMs, owner: owner)
        record(.settle, owner, kept == nil ? "stored" : "kept")
        return kept
    }

    func claim(_ key: String, owner: String, leaseMs: Int, ttlMs: Int) async throws(StateStoreError) -> ClaimAnswer {
        try check(.claim, owner)
        let answer = try await inner.claim(key, owner: owner, leaseMs: leaseMs, ttlMs: ttlMs)
        let word = switch answer {
        case .claimed: "claimed"
        case .held: "held"
        case .abandoned: "abandoned"
        case .stored: "stored"
        }
        record(.claim, owner, word)
        return answer
    }

    func renew(_ key: String, owner: String, leaseMs: Int) async throws(StateStoreError) -> Bool {
        try check(.renew, owner)
        let renewed = try await inner.renew(key, owner: owner, leaseMs: leaseMs)
        record(.renew, owner, "\(renewed)")
        return renewed
    }

    func release(_ key: String, owner: String) async throws(StateStoreError) {
        try check(.release, owner)
        try await inner.release(key, owner: owner)
        record(.release, owner, "released")
    }

    func ping() async throws(StateStoreError) {}
}

/// The provider as the exchange sees it: counts the calls that reach it (across every exchange
/// given the same gateway), answers from a script, and holds a call until the test lets it go
/// when asked to.
final class ScriptedGateway: CarrierGateway {
    private struct State {
        var calls = 0
        var held: [Int: CheckedContinuation<Void, Never>] = [:]
        var holding: Set<Int> = []
    }

    private let state = Mutex(State())
    let answer: @Sendable (Int) -> CarrierExchange<PhoneNumberOutcome>

    init(answer: @escaping @Sendable (Int) -> CarrierExchange<PhoneNumberOutcome>) { self.answer = answer }

    /// The calls that reached the provider so far.
    var calls: Int { state.withLock { $0.calls } }

    /// Call number `call` (1-based) waits for ``letGo(_:)`` once it has reached the provider.
    func hold(_ call: Int) { state.withLock { _ = $0.holding.insert(call) } }

    /// Whether call `call` is being held now.
    func isHolding(_ call: Int) -> Bool { state.withLock { $0.held[call] != nil } }

    func letGo(_ call: Int) {
        let waiter = state.withLock { state in
            state.holding.remove(call)
            return state.held.removeValue(forKey: call)
        }
        waiter?.resume()
    }

    func phoneNumber(app: AppSettings, token: String, fields: ProviderFields, logger: Logger) async -> CarrierExchange<PhoneNumberOutcome> {
        let call = state.withLock { state in
            state.calls += 1
            return state.calls
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let hold = state.withLock { state in
                guard state.holding.contains(call) else { return false }
                state.held[call] = continuation
                return true
            }
            if !hold { continuation.resume() }
        }
        return answer(call)
    }

    func verify(app: AppSettings, token: String, phoneNumber: String, fields: ProviderFields, logger: Logger) async -> CarrierExchange<VerificationOutcome> {
        CarrierExchange(call: nil, result: .failure(.internalError("not scripted")))
    }

    /// A call that reached the provider and got `result`.
    static func sent<Value>(_ result: Result<Value, PassgateError>) -> CarrierExchange<Value> {
        CarrierExchange(call: CarrierCall(provider: "cmcc", operation: .phoneNumber, msgid: "m", normalizedCode: "ok", billable: true, latencyMs: 1, host: "h"),
                        result: result)
    }

    static func number(_ taskId: String = "T") -> CarrierExchange<PhoneNumberOutcome> {
        sent(.success(PhoneNumberOutcome(phoneNumber: "13800138000", carrierTaskId: taskId)))
    }
}

/// Exchanges over one store and one manual event loop: each is one Passgate instance.
struct ExchangeHarness {
    let loop = NIOAsyncTestingEventLoop()
    let store: ObservedStore
    let registry = PrometheusCollectorRegistry()
    let app = TestConfiguration.make().apps[0]
    let logger = Logger(label: "test")

    init() {
        store = ObservedStore(loop: loop)
    }

    func instance(_ gateway: ScriptedGateway, leaseMs: Int = 3_000, inFlightWaitMs: Int = 6_000, writeRetryDelaysMs: [Int] = [50, 200, 800]) throws -> OneTimeTokenExchange {
        try OneTimeTokenExchange(
            gateway: gateway, store: store, replayKey: Array(repeating: 7, count: 32), ttlMs: 300_000,
            timing: .init(leaseMs: leaseMs, inFlightWaitMs: inFlightWaitMs, writeRetryDelaysMs: writeRetryDelaysMs), timers: loop,
            metrics: PassgateMetrics(factory: PrometheusMetricsFactory(registry: registry)))
    }

    /// One request for `token` to `exchange`, running in a task of its own.
    func request(_ exchange: OneTimeTokenExchange, token: String = "tok") -> PendingAnswer {
        let app = app, logger = logger
        let pending = PendingAnswer(loop: loop)
        Task { pending.finish(await exchange.phoneNumber(client: "c", app: app, token: token, logger: logger)) }
        return pending
    }

    /// The replay key of `token` for this harness's client and app.
    func key(_ exchange: OneTimeTokenExchange, token: String = "tok") -> String {
        exchange.replayKey("c", app.appId, "phone_number", token)!
    }

    /// The Prometheus text of this harness's metrics.
    func metricsText() -> String {
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }
}

/// A request's answer once it has one. Waiting for it runs the loop's due tasks (never moving its
/// time), so a pause scheduled for a point the test already passed still ends.
final class PendingAnswer: Sendable {
    private let loop: NIOAsyncTestingEventLoop
    private let answer = Mutex<ExchangeAnswer<PhoneNumberOutcome>?>(nil)

    init(loop: NIOAsyncTestingEventLoop) { self.loop = loop }

    func finish(_ answer: ExchangeAnswer<PhoneNumberOutcome>) { self.answer.withLock { $0 = answer } }

    var isFinished: Bool { answer.withLock { $0 != nil } }

    func value(sourceLocation: SourceLocation = #_sourceLocation) async -> ExchangeAnswer<PhoneNumberOutcome>? {
        for attempt in 0..<100_000 {
            if let answer = answer.withLock({ $0 }) { return answer }
            await loop.run()
            await ObservedStore.breathe(after: attempt)
        }
        Issue.record("the request did not finish", sourceLocation: sourceLocation)
        return nil
    }
}

extension ExchangeAnswer {
    var error: PassgateError? {
        if case .failure(let error) = result { return error }
        return nil
    }
}

/// The test event loop's time as a ``PassgateClock``: the store's entries and claims expire as the
/// loop's manual time moves, in step with the exchange's timers on that loop.
struct EventLoopTestClock: PassgateClock {
    let loop: NIOAsyncTestingEventLoop
    /// Where the loop's time 0 sits on the monotonic scale.
    private let origin = ContinuousClock.now

    func nowMilliseconds() -> Int64 { 1_764_000_000_000 + Int64(loop.now.uptimeNanoseconds / 1_000_000) }

    func monotonicNow() -> ContinuousClock.Instant { origin.advanced(by: .nanoseconds(Int64(loop.now.uptimeNanoseconds))) }
}
