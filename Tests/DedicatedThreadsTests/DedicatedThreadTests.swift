import DedicatedThreads
import Foundation
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
    func namedBeforeStartReturns() {
        let release = DispatchSemaphore(value: 0)
        let ran = DispatchSemaphore(value: 0)
        let prefix = "pg-test-\(UInt16.random(in: 0...UInt16.max) % 1000)-"
        // Several at once: without the wait in `start`, some would not have been scheduled yet.
        for index in 0..<12 {
            #expect(DedicatedThread.start(name: "\(prefix)\(index)") {
                ran.signal()
                release.wait()
            })
        }
        let names = Set(Self.threadNames())
        let missing = (0..<12).map { "\(prefix)\($0)" }.filter { !names.contains($0) }
        for _ in 0..<12 { release.signal() }
        #expect(missing.isEmpty, "not yet named when start returned: \(missing)")
        // Each body signals once; a bounded wait, so a body that never runs fails instead of hanging.
        let bodiesRun = (0..<12).filter { _ in ran.wait(timeout: .now() + 10) == .success }.count
        #expect(bodiesRun == 12)
    }

    @Test("names longer than the kernel's 15 bytes are cut, not refused")
    func longNamesAreCut() {
        let release = DispatchSemaphore(value: 0)
        #expect(DedicatedThread.start(name: "pg-a-very-long-thread-name") { release.wait() })
        #expect(Self.threadNames().contains("pg-a-very-long-"))
        release.signal()
    }
}
