import Dispatch
import Foundation
import PassgateCore
import Synchronization
import Testing

/// `DescriptorOutput.writeAll`, the one write loop behind standard output, the audit file and the
/// sandbox key file, against real pipes and devices.
@Suite("descriptor output: every byte written, or the errno and how much was")
struct DescriptorOutputTests {
    @Test("a buffer sixteen times a pipe's capacity arrives whole and in order, through partial writes")
    func largerThanThePipe() throws {
        let pipe = try DrainedPipe()
        let bytes = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) }
        let reading = pipe.readAll()
        let outcome = DescriptorOutput.writeAll(bytes, to: pipe.writeEnd)
        pipe.closeWriteEnd()
        #expect(outcome == DescriptorOutput.Outcome(written: bytes.count, errorNumber: nil))
        #expect(reading.wait() == bytes)
    }

    @Test("a full non-blocking pipe is waited on until the reader takes bytes, not reported as EAGAIN")
    func nonBlockingPipeWaits() throws {
        let pipe = try DrainedPipe()
        _ = fcntl(pipe.writeEnd, F_SETFL, fcntl(pipe.writeEnd, F_GETFL) | O_NONBLOCK)
        let chunk = [UInt8](repeating: 0x61, count: 4096)
        var filled = 0
        while write(pipe.writeEnd, chunk, chunk.count) > 0 { filled += chunk.count }
        #expect(errno == EAGAIN)
        let more = [UInt8](repeating: 0x62, count: 10_000)
        // The reader starts only after the writer has found the pipe full.
        let reading = pipe.readAll(after: .milliseconds(50))
        let outcome = DescriptorOutput.writeAll(more, to: pipe.writeEnd)
        pipe.closeWriteEnd()
        #expect(outcome == DescriptorOutput.Outcome(written: more.count, errorNumber: nil))
        let read = reading.wait()
        #expect(read.count == filled + more.count)
        #expect(Array(read.suffix(more.count)) == more)
    }

    @Test("a device that refuses reports its errno, with nothing counted as written")
    func refusingDescriptors() throws {
        let full = open("/dev/full", O_WRONLY | O_CLOEXEC)
        try #require(full >= 0)
        defer { close(full) }
        #expect(DescriptorOutput.writeAll([1, 2, 3], to: full) == DescriptorOutput.Outcome(written: 0, errorNumber: ENOSPC))
        #expect(DescriptorOutput.writeAll([1, 2, 3], to: -1) == DescriptorOutput.Outcome(written: 0, errorNumber: EBADF))
    }

    @Test("an empty buffer writes nothing and succeeds, even on a descriptor that would refuse")
    func emptyBuffer() {
        #expect(DescriptorOutput.writeAll([], to: -1) == DescriptorOutput.Outcome(written: 0, errorNumber: nil))
    }
}

/// A pipe whose read end a Dispatch thread drains (off Swift's cooperative pool: the reads block).
private final class DrainedPipe: Sendable {
    let readEnd: Int32
    let writeEnd: Int32

    init() throws {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw POSIXError(.EMFILE) }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        close(readEnd)
    }

    func closeWriteEnd() {
        close(writeEnd)
    }

    /// Reads until end of file, starting after `delay`.
    func readAll(after delay: DispatchTimeInterval = .milliseconds(0)) -> Reading {
        let reading = Reading()
        let readEnd = readEnd
        DispatchQueue.global().asyncAfter(deadline: .now() + delay) {
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                received.append(contentsOf: buffer[..<count])
            }
            reading.finish(received)
        }
        return reading
    }

    final class Reading: Sendable {
        private let done = DispatchSemaphore(value: 0)
        private let bytes = Mutex<[UInt8]>([])

        func finish(_ received: [UInt8]) {
            bytes.withLock { $0 = received }
            done.signal()
        }

        func wait() -> [UInt8] {
            done.wait()
            return bytes.withLock { $0 }
        }
    }
}
