import Synchronization
import Testing

@testable import PassgateServer

@Suite("shared flight: followers of one in-process carrier call")
struct SharedFlightTests {
    final class Started: Sendable {
        let count = Mutex(0)
    }

    @Test("followers waiting before, and arriving after, the leader finishes all get its outcome; a second finish changes nothing")
    func everyFollowerGetsTheLeadersOutcome() async {
        let flight = SharedFlight<Int>()
        let waiting = Started()
        await withTaskGroup(of: Int.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    waiting.count.withLock { $0 += 1 }
                    return await flight.wait()
                }
            }
            while waiting.count.withLock({ $0 }) < 20 { await Task.yield() }
            flight.finish(7)
            flight.finish(8)
            let outcomes = await group.reduce(into: []) { $0.append($1) }
            #expect(outcomes == Array(repeating: 7, count: 20))
        }
        #expect(await flight.wait() == 7)
    }

    @Test("a cancelled follower keeps waiting for the outcome instead of leaving without one")
    func cancelledFollowerStillGetsTheOutcome() async {
        let flight = SharedFlight<String>()
        let follower = Task { await flight.wait() }
        follower.cancel()
        try? await Task.sleep(for: .milliseconds(20))
        flight.finish("done")
        #expect(await follower.value == "done")
    }
}
