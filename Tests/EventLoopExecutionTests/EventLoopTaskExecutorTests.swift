import Dispatch
import EventLoopExecution
import NIOCore
import NIOPosix
import Testing

@Suite struct EventLoopTaskExecutorTests {
    @Test func aPreferringTaskRunsOnTheLoopAndComesBackToItAfterAnotherThreadResumesIt() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = group.next()
        let (before, after) = await withTaskExecutorPreference(EventLoopTaskExecutor(loop)) {
            let before = loop.inEventLoop
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().async { continuation.resume() }
            }
            return (before, loop.inEventLoop)
        }
        #expect(before)
        #expect(after)
        try await group.shutdownGracefully()
    }

    @Test func childTasksInheritTheLoop() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = group.next()
        let onLoop = await withTaskExecutorPreference(EventLoopTaskExecutor(loop)) {
            await withTaskGroup(of: Bool.self) { children in
                for _ in 0..<4 { children.addTask { loop.inEventLoop } }
                return await children.reduce(true) { $0 && $1 }
            }
        }
        #expect(onLoop)
        try await group.shutdownGracefully()
    }

    @Test func withoutThePreferenceATaskRunsOffTheLoop() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = group.next()
        #expect(!loop.inEventLoop)
        try await group.shutdownGracefully()
    }
}
