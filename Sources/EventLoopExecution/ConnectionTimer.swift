public import NIOCore

/// The one scheduled task behind a connection's ``ConnectionDeadlines``, on the connection's loop:
/// moved only when a deadline comes earlier than it fires (a later one is asked for again then).
public struct ConnectionTimer {
    private var scheduled: (task: Scheduled<Void>, due: NIODeadline)?

    public init() {}

    /// Has `fire` run on `loop` at `due` or earlier. On the loop.
    public mutating func arm(at due: NIODeadline, on loop: any EventLoop, _ fire: @escaping () -> Void) {
        if let scheduled, scheduled.due <= due { return }
        scheduled?.task.cancel()
        scheduled = (loop.assumeIsolated().scheduleTask(deadline: due, fire), due)
    }

    /// The task ran: the next ``arm(at:on:_:)`` schedules one again.
    public mutating func fired() {
        scheduled = nil
    }

    /// The connection is gone.
    public mutating func cancel() {
        scheduled?.task.cancel()
        scheduled = nil
    }
}
