import Hummingbird
import NIOCore
import Logging
import Synchronization

/// Per-request state: the request id every log line and response carries, and the facts the
/// access log needs from deeper layers.
struct PassgateRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// From a sane `X-Request-Id`, else generated.
    var requestId: String = ""
    /// The request's server span, when tracing is on: its trace id goes into the request's log
    /// lines and audit records, and its context parents the spans below it.
    var span: PassgateSpan?
    /// The span's trace id in hex, written once for the request's log lines and audit records.
    var traceId: String?
    /// Shared by reference: the context is a value, and the access-log middleware must see what
    /// the controller learned (client, appId) after `next` returns.
    let facts = RequestFacts()

    /// The connection the request came on; its peer is the request's source address.
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }

    /// The TCP peer's address (a load balancer's, behind one); `nil` where there is none (a test).
    var sourceAddress: AuthFailureLimiter.Source? {
        AuthFailureLimiter.Source(channel.remoteAddress)
    }
}

/// What a request turned out to be about, filled in as it is learned.
final class RequestFacts: Sendable {
    struct Values {
        var clientId: String?
        var appId: String?
        var maskedPhone: String?
    }

    // `Mutex`: written by the handler, read by the middleware, possibly on different threads.
    private let values = Mutex(Values())

    var clientId: String? {
        get { values.withLock { $0.clientId } }
        set { values.withLock { $0.clientId = newValue } }
    }

    var appId: String? {
        get { values.withLock { $0.appId } }
        set { values.withLock { $0.appId = newValue } }
    }

    /// The number the request was about, masked (`138****8000`), once known.
    var maskedPhone: String? {
        get { values.withLock { $0.maskedPhone } }
        set { values.withLock { $0.maskedPhone = newValue } }
    }
}
