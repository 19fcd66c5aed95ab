import PassgateCore
import Synchronization

/// The provider's raw replies to the calls of one task, for the console's integration check,
/// which shows what the provider answered besides what Passgate made of it.
///
/// Set only around the console's own exchange (``capturing(_:)``); a task the call is made from
/// inherits it (the exchange makes the provider call in the request's own task). The gateway
/// asks once per exchange, and only while a capture is running anywhere (one relaxed atomic
/// load) does it look the task-local up (about 55 ns, measured): an API request pays the load.
final class CarrierReplyCapture: Sendable {
    /// What came back for one attempt: the reply, or why there was none.
    struct Reply: Sendable {
        var url: String
        var status: Int?
        var contentType: String?
        /// At most `maxBodyBytes` of the body, as received; `truncated` says whether more came.
        var body: [UInt8]
        var truncated: Bool
        /// The transport's failure, when no reply came (its kind and detail, no body).
        var failure: String?
    }

    @TaskLocal static var current: CarrierReplyCapture?
    /// Captures running now, in any task: while 0, nothing looks ``current`` up.
    static let running = Atomic<Int>(0)

    /// Runs `body` with this capture as the task's.
    func capturing<Value>(_ body: () async -> Value) async -> Value {
        Self.running.add(1, ordering: .relaxed)
        defer { Self.running.subtract(1, ordering: .relaxed) }
        return await Self.$current.withValue(self) { await body() }
    }

    /// A reply body is kept up to this many bytes: the page shows a bounded part of it anyway.
    static let maxBodyBytes = 16 << 10
    /// Attempts kept (one per base URL tried); later ones are dropped.
    static let maxReplies = 4

    private let replies = Mutex<[Reply]>([])

    /// The replies in the order the attempts were made.
    var captured: [Reply] { replies.withLock { $0 } }

    func record(_ reply: Reply) {
        replies.withLock { if $0.count < Self.maxReplies { $0.append(reply) } }
    }
}

/// A transport that hands every reply to a capture and passes it on unchanged.
struct CapturingTransport: CarrierTransport {
    let base: any CarrierTransport
    let capture: CarrierReplyCapture

    func send(_ request: CarrierHTTPRequest) async throws -> CarrierHTTPReply {
        do {
            let reply = try await base.send(request)
            let kept = CarrierReplyCapture.maxBodyBytes
            capture.record(.init(
                url: request.url, status: reply.status, contentType: reply.contentType, body: Array(reply.body.prefix(kept)),
                truncated: reply.body.count > kept, failure: nil))
            return reply
        } catch let failure as TransportFailure {
            capture.record(.init(
                url: request.url, status: nil, contentType: nil, body: [], truncated: false, failure: "\(failure.kind.rawValue): \(failure.detail)"))
            throw failure
        }
    }
}

extension CarrierTransport {
    /// This transport, or one that also fills the task's reply capture when one is set.
    func capturingWhenAsked() -> any CarrierTransport {
        guard CarrierReplyCapture.running.load(ordering: .relaxed) > 0, let capture = CarrierReplyCapture.current else { return self }
        return CapturingTransport(base: self, capture: capture)
    }
}
