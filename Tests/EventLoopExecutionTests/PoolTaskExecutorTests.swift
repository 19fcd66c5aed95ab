import EventLoopExecution
import Foundation
import Testing

/// A task that prefers ``PoolTaskExecutor`` runs its jobs on Dispatch's default-QoS queue, the
/// queue a busy listener's jobs go to, and comes back there after another thread resumes it.
@Suite struct PoolTaskExecutorTests {
    @Test func aTaskPreferringThePoolRunsOnDispatchsDefaultQueue() async {
        let name = await withTaskExecutorPreference(PoolTaskExecutor.shared) {
            // Asked again (at most 20 times) while a resumption beats its suspension and the task
            // goes on in the resuming thread instead.
            for _ in 0..<20 {
                await EventLoopTaskExecutorTests.suspendUntilResumedByAnotherThread()
                if Self.currentThreadName().hasSuffix("default-qos") { break }
            }
            return Self.currentThreadName()
        }
        #expect(name.hasSuffix("default-qos"), "ran on thread \(name)")
    }

    @Test func aContinuationResumedByAnotherThreadBringsTheTaskBackToThePool() async {
        let (resumer, resumed) = await withTaskExecutorPreference(PoolTaskExecutor.shared) {
            var threads = (resumer: pthread_self(), resumed: pthread_self())
            // A resumption that beats the suspension lets the task go on in the resuming thread,
            // without the executor: ask again while that happens (at most 20 times).
            for _ in 0..<20 {
                let resumer = await EventLoopTaskExecutorTests.suspendUntilResumedByAnotherThread()
                threads = (resumer, pthread_self())
                if pthread_equal(threads.resumer, threads.resumed) == 0 { break }
            }
            return threads
        }
        #expect(pthread_equal(resumer, resumed) == 0)
    }

    /// The kernel's name of the calling thread (Linux keeps the last 15 characters of Dispatch's).
    static func currentThreadName() -> String {
        let name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
        return name.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
