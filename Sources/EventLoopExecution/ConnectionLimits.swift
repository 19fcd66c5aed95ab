public import NIOCore

/// How long a listener waits for its clients, and how many it holds: what keeps a slow or idle
/// client from holding a connection, and the memory behind it, for as long as it likes.
public struct ConnectionLimits: Sendable, Equatable {
    /// Reading a request's head: from its first byte, or from the accept for a connection's first
    /// request (a client that connects and sends nothing is closed after this too).
    public var headTimeout: TimeAmount
    /// Reading a request's body, from the end of its head.
    public var bodyTimeout: TimeAmount
    /// Between requests on a keep-alive connection: nothing being read, nothing being answered.
    public var idleTimeout: TimeAmount
    /// Open connections per listener; one more is closed as soon as it is accepted.
    public var maxConnections: Int
    /// The request line and header fields together (names, values, target), in bytes; a longer
    /// head is answered 431 and the connection closed.
    public var maxHeadBytes: Int

    public init(
        headTimeout: TimeAmount = .seconds(10), bodyTimeout: TimeAmount = .seconds(10), idleTimeout: TimeAmount = .seconds(75),
        maxConnections: Int = 16_384, maxHeadBytes: Int = 8 * 1024
    ) {
        self.headTimeout = headTimeout
        self.bodyTimeout = bodyTimeout
        self.idleTimeout = idleTimeout
        self.maxConnections = maxConnections
        self.maxHeadBytes = maxHeadBytes
    }
}

/// Why a listener closed a connection on its own: a limit of ``ConnectionLimits`` was reached.
/// A metrics label: never carries an address.
public enum ConnectionLimitReached: String, Sendable, CaseIterable {
    /// Accepted over ``ConnectionLimits/maxConnections``.
    case connections
    /// ``ConnectionLimits/headTimeout`` passed (a head started and not finished: answered 408).
    case headTimeout = "head_timeout"
    /// ``ConnectionLimits/bodyTimeout`` passed before the body ended (answered 408).
    case bodyTimeout = "body_timeout"
    /// ``ConnectionLimits/idleTimeout`` passed on a keep-alive connection (closed silently).
    case idleTimeout = "idle_timeout"
    /// The head was longer than ``ConnectionLimits/maxHeadBytes`` (answered 431).
    case headTooLarge = "head_too_large"
}
