import NIOCore
import Synchronization

/// The open connections, so shutdown can close them all (held `noAnswer` ones included), and at
/// most ``limit`` of them: one more is closed as soon as it is accepted.
final class ConnectionRegistry: Sendable {
    private struct State {
        var channels: [ObjectIdentifier: any Channel] = [:]
        var closing = false
    }

    private let state = Mutex(State())
    let limit: Int

    init(limit: Int) {
        self.limit = limit
    }

    /// Tracks `channel` until it closes; `false` (and the channel is closed) once shutdown began
    /// or with ``limit`` connections open.
    func register(_ channel: any Channel) -> Bool {
        let id = ObjectIdentifier(channel)
        let accepted = state.withLock { state in
            guard !state.closing, state.channels.count < limit else { return false }
            state.channels[id] = channel
            return true
        }
        guard accepted else {
            channel.close(promise: nil)
            return false
        }
        channel.closeFuture.whenComplete { [weak self] _ in
            _ = self?.state.withLock { $0.channels.removeValue(forKey: id) }
        }
        return true
    }

    var count: Int { state.withLock { $0.channels.count } }

    /// Refuses new connections and closes every open one, returning when all are closed.
    func closeAll() async {
        let channels = state.withLock { state in
            state.closing = true
            return Array(state.channels.values)
        }
        for channel in channels {
            channel.close(promise: nil)
        }
        for channel in channels {
            try? await channel.closeFuture.get()
        }
    }
}
