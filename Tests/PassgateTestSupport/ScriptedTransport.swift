import PassgateCore
import Synchronization

/// A carrier played by the test, in-process: each call is answered from a script - a reply
/// (status and body), a transport failure that proves the request unsent or one after which it
/// may have left, a call held until the test lets it go, or the carrier behind it (a provider's
/// emulator) - and every request it was handed is recorded as it would have gone on the wire.
///
/// Answers are looked up per call: one queued for the call's host (`then`), else the standing one
/// for its host (`always`), else the standing one for every host, else the script closure, else
/// the carrier behind. A host is the URL's `host[:port]`.
public final class ScriptedTransport: CarrierTransport {
    /// What one call gets.
    public indirect enum Answer: Sendable {
        case reply(CarrierHTTPReply)
        /// The transfer fails with `kind`: ``TransportFailure/Kind/mayHaveBeenDelivered`` says
        /// whether the request may have left (`unsent`, `mayHaveLeft` name the usual two).
        case failure(TransportFailure.Kind)
        /// The call waits (counted in ``held``) until ``letGo()``, then gets the answer inside.
        case held(Answer)
        /// The carrier behind answers (`behind:`); without one, a 404 page.
        case carrier

        /// A reply with `body` and a JSON content type.
        public static func json(_ body: String, status: Int = 200) -> Answer {
            .reply(CarrierHTTPReply(status: status, contentType: "application/json", body: Array(body.utf8)))
        }

        /// An HTML error page with `status` (a proxy's or load balancer's).
        public static func page(status: Int) -> Answer {
            .reply(CarrierHTTPReply(status: status, contentType: "text/html", body: Array("<html><body>\(status)</body></html>".utf8)))
        }

        /// The connection was refused: provably unsent, so fail-over may try the next base URL.
        public static let unsent = Answer.failure(.connectionRefused)
        /// Timed out after sending: the carrier may have the token now.
        public static let mayHaveLeft = Answer.failure(.timeoutAfterSend)
    }

    public typealias Script = @Sendable (CarrierHTTPRequest) throws -> CarrierHTTPReply

    private struct State {
        var requests: [CarrierHTTPRequest] = []
        var queued: [String: [Answer]] = [:]
        var standing: [String: Answer] = [:]
        var everywhere: Answer?
        var held: [CheckedContinuation<Void, Never>] = []
        var heldWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Mutex(State())
    private let script: Script?
    private let carrier: (any CarrierTransport)?

    /// A transport whose calls `script` answers (throwing a ``TransportFailure`` to fail one).
    public init(_ script: @escaping Script) {
        self.script = script
        carrier = nil
    }

    /// A transport that passes calls to `carrier` unless told otherwise.
    public init(behind carrier: (any CarrierTransport)? = nil) {
        script = nil
        self.carrier = carrier
    }

    /// Every request handed to the transport so far, in order.
    public var requests: [CarrierHTTPRequest] { state.withLock { $0.requests } }

    /// The requests handed to the transport for `host`.
    public func requests(host: String) -> [CarrierHTTPRequest] { requests.filter { Self.host(of: $0.url) == host } }

    /// From now on, calls to `host` (nil: to every host without an answer of its own) get `answer`.
    public func always(_ answer: Answer, host: String? = nil) {
        state.withLock { state in
            if let host { state.standing[host] = answer } else { state.everywhere = answer }
        }
    }

    /// The next calls to `host` get `answers`, one each, before its standing answer applies again.
    public func then(_ answers: Answer..., host: String) {
        state.withLock { $0.queued[host, default: []].append(contentsOf: answers) }
    }

    /// The calls held now.
    public var held: Int { state.withLock { $0.held.count } }

    /// Returns once at least `count` calls are held (no polling: the held call wakes it).
    public func waitUntilHeld(_ count: Int = 1) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state in
                if state.held.count >= count { return true }
                state.heldWaiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Lets every held call go on to its answer.
    public func letGo() {
        let held = state.withLock { state in
            defer { state.held = [] }
            return state.held
        }
        for call in held { call.resume() }
    }

    public func send(_ request: CarrierHTTPRequest) async throws -> CarrierHTTPReply {
        let host = Self.host(of: request.url)
        let answer = state.withLock { state -> Answer? in
            state.requests.append(request)
            if var queue = state.queued[host], !queue.isEmpty {
                let next = queue.removeFirst()
                state.queued[host] = queue
                return next
            }
            return state.standing[host] ?? state.everywhere
        }
        guard let answer else {
            if let script { return try script(request) }
            return try await self.answer(.carrier, request, host: host)
        }
        return try await self.answer(answer, request, host: host)
    }

    private func answer(_ answer: Answer, _ request: CarrierHTTPRequest, host: String) async throws -> CarrierHTTPReply {
        switch answer {
        case .reply(let reply):
            return reply
        case .failure(let kind):
            throw TransportFailure(kind: kind, detail: "scripted by the test", host: host)
        case .carrier:
            guard let carrier else { return CarrierHTTPReply(status: 404, contentType: "text/html", body: Array("<html>no carrier</html>".utf8)) }
            return try await carrier.send(request)
        case .held(let then):
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let woken = state.withLock { state in
                    state.held.append(continuation)
                    let count = state.held.count
                    let woken = state.heldWaiters.filter { $0.count <= count }.map { $0.continuation }
                    state.heldWaiters.removeAll { $0.count <= count }
                    return woken
                }
                for waiter in woken { waiter.resume() }
            }
            return try await self.answer(then, request, host: host)
        }
    }

    /// `host[:port]` of `url`.
    public static func host(of url: String) -> String {
        let afterScheme = url.firstRange(of: "://").map { url[$0.upperBound...] } ?? url[...]
        return String(afterScheme.prefix { $0 != "/" && $0 != "?" })
    }
}
