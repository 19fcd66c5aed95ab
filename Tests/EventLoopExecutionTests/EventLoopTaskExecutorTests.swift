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
                await Task.yield()
                return loop.inEventLoop
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
                await Task.yield()
                return loop.inEventLoop
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
                await Task.yield()
                places.append(loop.inEventLoop)
                affinity.requestStarted()  // a second request arrives
                await Task.yield()
                places.append(loop.inEventLoop)
                affinity.requestFinished()  // and is answered
                await Task.yield()
                places.append(loop.inEventLoop)
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
