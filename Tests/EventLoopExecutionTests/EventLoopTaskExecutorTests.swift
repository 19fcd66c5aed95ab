import EventLoopExecution
import Foundation
import NIOCore
import NIOPosix
import Testing

/// Where a task that prefers an ``EventLoopTaskExecutor`` runs its jobs, without a server: the
/// loop while its affinity is quiet, Swift's pool while it is busy, and the loop again when a
/// continuation resumed by another thread brings the task back.
@Suite struct EventLoopTaskExecutorTests {
    @Test func aTaskRunsOnTheLoopWhileFewRequestsAreInFlight() async throws {
        try await withLoop { loop in
            let affinity = EventLoopAffinity(limit: 1)
            affinity.requestStarted()
            defer { affinity.requestFinished() }
            let onLoop = await withTaskExecutorPreference(EventLoopTaskExecutor(loop, affinity: affinity)) {
                await Self.onLoopAfterSuspending(loop, expected: true)
            }
            #expect(onLoop)
        }
    }

    @Test func aTaskRunsOnThePoolWhileMoreRequestsThanTheLimitAreInFlight() async throws {
        try await withLoop { loop in
            let affinity = EventLoopAffinity(limit: 1)
            affinity.requestStarted()
            affinity.requestStarted()
            defer { affinity.requestFinished(); affinity.requestFinished() }
            let onLoop = await withTaskExecutorPreference(EventLoopTaskExecutor(loop, affinity: affinity)) {
                await Self.onLoopAfterSuspending(loop, expected: false)
            }
            #expect(!onLoop)
            #expect(affinity.requestsInFlight == 2)
        }
    }

    @Test func aContinuationResumedByAnotherThreadBringsTheTaskBackToItsLoop() async throws {
        try await withLoop { loop in
            let affinity = EventLoopAffinity(limit: 1)
            let (resumedOnLoop, resumerOnLoop) = await withTaskExecutorPreference(EventLoopTaskExecutor(loop, affinity: affinity)) {
                // The resuming thread plays the curl engine: a plain OS thread, not the loop.
                let resumerOnLoop = await withCheckedContinuation { continuation in
                    Thread { continuation.resume(returning: loop.inEventLoop) }.start()
                }
                return (loop.inEventLoop, resumerOnLoop)
            }
            #expect(!resumerOnLoop)
            #expect(resumedOnLoop)
        }
    }

    @Test func aRequestMovesToThePoolWhenOthersArriveAndBackWhenTheyAreDone() async throws {
        try await withLoop { loop in
            let affinity = EventLoopAffinity(limit: 1)
            let places = await withTaskExecutorPreference(EventLoopTaskExecutor(loop, affinity: affinity)) {
                var places: [Bool] = []
                affinity.requestStarted()
                places.append(await Self.onLoopAfterSuspending(loop, expected: true))
                affinity.requestStarted()  // a second request arrives
                places.append(await Self.onLoopAfterSuspending(loop, expected: false))
                affinity.requestFinished()  // and is answered
                places.append(await Self.onLoopAfterSuspending(loop, expected: true))
                affinity.requestFinished()
                return places
            }
            #expect(places == [true, false, true])
            #expect(affinity.requestsInFlight == 0)
        }
    }

    @Test func aLimitBelowOneCountsAsOne() {
        #expect(EventLoopAffinity(limit: 0).limit == 1)
        #expect(EventLoopAffinity(limit: -3).limit == 1)
        #expect(EventLoopAffinity(limit: 8).limit == 8)
    }

    /// Suspends the task and has a plain OS thread resume it, as the curl engine does with a call's
    /// answer: the executor then decides where the rest runs. The thread waits a moment first: a
    /// continuation resumed before its task has suspended lets the task go on where it is, with no
    /// decision at all (in Passgate the carrier's answer always comes later).
    /// Returns the resuming thread.
    @discardableResult
    static func suspendUntilResumedByAnotherThread() async -> pthread_t {
        await withCheckedContinuation { (continuation: CheckedContinuation<pthread_t, Never>) in
            Thread {
                Thread.sleep(forTimeInterval: 0.002)
                continuation.resume(returning: pthread_self())
            }.start()
        }
    }

    /// Whether the task runs on `loop` after a suspension, asking again (at most 20 times) while it
    /// is not where `expected` says: one resumption can still beat the suspension on a busy machine.
    static func onLoopAfterSuspending(_ loop: any EventLoop, expected: Bool) async -> Bool {
        for _ in 0..<20 {
            await suspendUntilResumedByAnotherThread()
            if loop.inEventLoop == expected { break }
        }
        return loop.inEventLoop
    }

    private func withLoop(_ body: (any EventLoop) async throws -> Void) async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        do {
            try await body(group.next())
        } catch {
            try await group.shutdownGracefully()
            throw error
        }
        try await group.shutdownGracefully()
    }
}
