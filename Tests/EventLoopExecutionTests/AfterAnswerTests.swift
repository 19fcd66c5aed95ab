import Dispatch
@testable import EventLoopExecution
import Hummingbird
import NIOCore
import PassgateTestSupport
import ServiceLifecycle
import Synchronization
import Testing

/// ``AfterAnswer``: work a request defers runs after its answer is on the wire when the request
/// ends on its event loop, before the hand-off when it ends on the pool, at once where there is no
/// request to wait for, and never after the server has stopped.
@Suite struct AfterAnswerTests {
    @Test func workDeferredOnTheLoopRunsOnlyOnceTheClientHasTheAnswer() async throws {
        let clientHasAnswer = DispatchSemaphore(value: 0)
        let (outcomes, outcome) = AsyncStream.makeStream(of: Bool.self)
        let router = Router()
        router.get("deferred") { _, _ -> String in
            AfterAnswer.schedule {
                // Blocks the loop until the test has read the answer: were the work run before the
                // write, the answer would not come and the read below would time out.
                outcome.yield(clientHasAnswer.wait(timeout: .now() + .seconds(20)) == .success)
                outcome.finish()
            }
            return "answered"
        }
        try await DispatchServer.with(router: router, requestsOnEventLoop: 1) { port, _ in
            let socket = try LoopbackSocket(port: port)
            #expect(try await socket.get("/deferred") == "answered")
            clientHasAnswer.signal()
            let released = await outcomes.first { _ in true }
            #expect(released == true)
        }
    }

    @Test func workDeferredOnThePoolRunsBeforeTheAnswerIsHandedToTheLoop() async throws {
        let ran = Mutex(false)
        let router = Router()
        router.get("deferred") { _, _ -> String in
            AfterAnswer.schedule { ran.withLock { $0 = true } }
            return "answered"
        }
        try await DispatchServer.with(router: router, requestsOnEventLoop: 0) { port, _ in
            let socket = try LoopbackSocket(port: port)
            #expect(try await socket.get("/deferred") == "answered")
            #expect(ran.withLock { $0 })
        }
    }

    @Test func workOfARequestWhoseClientLeftRunsBeforeTheServerStops() async throws {
        let ran = Mutex(false)
        let gate = Gate()
        let router = Router()
        router.get("spend") { _, _ -> String in
            await gate.hold()
            AfterAnswer.schedule { ran.withLock { $0 = true } }
            return "spent"
        }
        try await DispatchServer.with(router: router, requestsOnEventLoop: 1) { port, group in
            do {
                let leaving = try LoopbackSocket(port: port)
                leaving.resetOnClose()
                try leaving.send("GET /spend HTTP/1.1\r\nHost: x\r\n\r\n")
                try await gate.waitUntilHeld(1)
            }  // reset before the answer
            await group.triggerGracefulShutdown()
            try await Task.sleep(for: .milliseconds(200))
            gate.open()
        }
        // `with` returns once the server has stopped.
        #expect(ran.withLock { $0 })
    }

    @Test func workScheduledOutsideARequestRunsAtOnce() {
        let ran = Mutex(false)
        AfterAnswer.schedule { ran.withLock { $0 = true } }
        #expect(ran.withLock { $0 })
    }

    @Test func aListRunsItsWorkInOrderOnceAndWorkAddedAfterItRunsAtOnce() {
        let order = Mutex<[Int]>([])
        let list = AfterAnswer.Work()
        #expect(list.add { order.withLock { $0.append(1) } })
        #expect(list.add { order.withLock { $0.append(2) } })
        #expect(order.withLock { $0 }.isEmpty)
        list.run()
        #expect(order.withLock { $0 } == [1, 2])
        list.run()
        #expect(order.withLock { $0 } == [1, 2])
        #expect(!list.add { order.withLock { $0.append(3) } })
    }

    @Test func workScheduledWhileAListIsCurrentWaitsForTheList() {
        let ran = Mutex(false)
        let list = AfterAnswer.Work()
        AfterAnswer.$current.withValue(list) {
            AfterAnswer.schedule { ran.withLock { $0 = true } }
        }
        #expect(!ran.withLock { $0 })
        list.run()
        #expect(ran.withLock { $0 })
    }
}
