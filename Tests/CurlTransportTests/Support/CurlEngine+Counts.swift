@testable import CurlTransport
import Synchronization

extension CurlEngine {
    /// The live engine's transfers on the wire, requests queued, and ids tracked at all: what
    /// the shutdown tests watch. Only tests need it, so it lives here, not in the engine.
    var counts: (active: Int, queued: Int, tracked: Int) {
        state.withLock { $0.counts }
    }
}
