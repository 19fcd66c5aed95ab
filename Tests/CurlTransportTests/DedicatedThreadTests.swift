import DedicatedThreads
import Foundation
import Synchronization
import Testing

@Suite("DedicatedThread")
struct DedicatedThreadTests {
    /// Names of this process's threads, from /proc.
    static func threadNames() -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.compactMap { try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8) }
            .map { $0.trimmingCharacters(in: .newlines) }
    }

    @Test("start returns only once the new thread carries its name, and the thread runs its body")
    func namedBeforeStartReturns() async throws {
        let release = DispatchSemaphore(value: 0)
        let ran = Atomic<Int>(0)
        let prefix = "pg-test-\(UInt16.random(in: 0...UInt16.max) % 1000)-"
        // Several at once: without the wait in `start`, some would not have been scheduled yet.
        for index in 0..<12 {
            #expect(DedicatedThread.start(name: "\(prefix)\(index)") {
                ran.add(1, ordering: .relaxed)
                release.wait()
            })
        }
        let names = Set(Self.threadNames())
        let missing = (0..<12).map { "\(prefix)\($0)" }.filter { !names.contains($0) }
        for _ in 0..<12 { release.signal() }
        #expect(missing.isEmpty, "not yet named when start returned: \(missing)")
        let deadline = ContinuousClock.now + .seconds(10)
        while ran.load(ordering: .relaxed) < 12, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(ran.load(ordering: .relaxed) == 12)
    }

    @Test("names longer than the kernel's 15 bytes are cut, not refused")
    func longNamesAreCut() {
        let release = DispatchSemaphore(value: 0)
        #expect(DedicatedThread.start(name: "pg-a-very-long-thread-name") { release.wait() })
        #expect(Self.threadNames().contains("pg-a-very-long-"))
        release.signal()
    }
}
