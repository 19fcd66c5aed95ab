import DedicatedThreads
import Logging
import ServiceLifecycle
import Synchronization
import Testing

@Suite("Waiting for a service's shutdown")
struct ShutdownWaitTests {
    @Test("a reason that comes first is kept for the waiter; later reasons change nothing")
    func reasonBeforeTheWaiter() {
        var state = ShutdownWait.State<Int>()
        #expect(state.finish(.cancelled) == nil)
        #expect(state.finish(.gracefulShutdown) == nil)
        #expect(state.wait(1) == .cancelled)
        #expect(state.finish(.gracefulShutdown) == nil)
    }

    @Test("a waiter that comes first is handed back, once, to the first reason")
    func waiterBeforeTheReason() {
        var state = ShutdownWait.State<Int>()
        #expect(state.wait(7) == nil)
        #expect(state.finish(.gracefulShutdown) == 7)
        #expect(state.finish(.cancelled) == nil)
    }

    @Test("a task cancelled before it waits returns at once")
    func cancelledBefore() async {
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await ShutdownWait.untilShutdown()
        }
        #expect(await task.value == .cancelled)
    }

    @Test("a task cancelled while it waits returns")
    func cancelledWhileWaiting() async throws {
        let task = Task { await ShutdownWait.untilShutdown() }
        try await Task.sleep(for: .milliseconds(20))
        task.cancel()
        #expect(await task.value == .cancelled)
    }

    @Test("a service group's graceful shutdown ends the wait of each of its services, and a failing service's cancellation does too")
    func insideAServiceGroup() async throws {
        let reasons = Recorder()
        let group = ServiceGroup(configuration: .init(
            services: [.init(service: Waiting(reasons: reasons)), .init(service: Waiting(reasons: reasons))], logger: Logger(label: "test")))
        async let run: Void = group.run()
        try await Task.sleep(for: .milliseconds(50))
        await group.triggerGracefulShutdown()
        try await run
        #expect(reasons.all == [.gracefulShutdown, .gracefulShutdown])

        let failing = Recorder()
        let cancelled = ServiceGroup(configuration: .init(
            services: [.init(service: Waiting(reasons: failing)), .init(service: Failing()), .init(service: Waiting(reasons: failing))],
            logger: Logger(label: "test")))
        await #expect(throws: Failing.Failure.self) { try await cancelled.run() }
        #expect(failing.all == [.cancelled, .cancelled])
    }

    private struct Waiting: Service {
        let reasons: Recorder
        func run() async throws { reasons.add(await ShutdownWait.untilShutdown()) }
    }

    private struct Failing: Service {
        struct Failure: Error {}
        func run() async throws {
            try await Task.sleep(for: .milliseconds(20))
            throw Failure()
        }
    }

    private final class Recorder: Sendable {
        private let reasons = Mutex<[ShutdownWait.Reason]>([])
        func add(_ reason: ShutdownWait.Reason) { reasons.withLock { $0.append(reason) } }
        var all: [ShutdownWait.Reason] { reasons.withLock { $0 } }
    }
}
