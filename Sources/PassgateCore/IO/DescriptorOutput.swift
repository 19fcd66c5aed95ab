#if canImport(Glibc)
import Glibc
private let systemWrite = Glibc.write
#elseif canImport(Musl)
import Musl
private let systemWrite = Musl.write
#elseif canImport(Darwin)
import Darwin
private let systemWrite = Darwin.write
#endif

/// Writing a whole buffer to a file descriptor: the one loop behind the log lines on standard
/// output, the audit file and the sandbox's key file.
///
/// `write(2)` may take part of a buffer (a pipe, a signal), fail with `EINTR`, or, on a descriptor
/// someone made non-blocking (a log pipe shared with a parent process), fail with `EAGAIN` while
/// the reader is behind. Each caller needs all of those handled the same way, and each needs to
/// know how much reached the descriptor when it stops: the audit file keeps its size from it.
public enum DescriptorOutput {
    /// What ``writeAll(_:to:)-(UnsafeRawBufferPointer,_)`` did.
    public struct Outcome: Sendable, Equatable {
        /// Bytes the descriptor took, from the start of the buffer.
        public var written: Int
        /// The `errno` of the write that failed; `nil` when every byte was written. A write that
        /// took nothing and reported no error (which `write(2)` does not do for a non-empty buffer)
        /// is reported as `EIO` rather than retried forever.
        public var errorNumber: Int32?

        public init(written: Int, errorNumber: Int32?) {
            self.written = written
            self.errorNumber = errorNumber
        }
    }

    /// Writes all of `buffer` to `descriptor`, through interrupted and partial writes, waiting
    /// (`poll`) while a non-blocking descriptor is full. Stops at the first other failure.
    public static func writeAll(_ buffer: UnsafeRawBufferPointer, to descriptor: Int32) -> Outcome {
        guard let base = buffer.baseAddress else { return Outcome(written: 0, errorNumber: nil) }
        var offset = 0
        while offset < buffer.count {
            let result = systemWrite(descriptor, base + offset, buffer.count - offset)
            if result > 0 {
                offset += result
                continue
            }
            guard result < 0 else { return Outcome(written: offset, errorNumber: EIO) }
            let failure = errno
            switch failure {
            case EINTR:
                continue
            case EAGAIN, EWOULDBLOCK:
                var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                _ = poll(&ready, 1, -1)
            default:
                return Outcome(written: offset, errorNumber: failure)
            }
        }
        return Outcome(written: offset, errorNumber: nil)
    }

    /// ``writeAll(_:to:)-(UnsafeRawBufferPointer,_)`` for bytes in an array.
    public static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Outcome {
        bytes.withUnsafeBytes { writeAll($0, to: descriptor) }
    }
}
