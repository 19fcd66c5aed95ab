#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension DescriptorOutput {
    /// Why ``createFile(_:containing:mode:)`` failed: the step, and its `errno`.
    public enum CreateFailure: Error, Sendable, Equatable, CustomStringConvertible {
        /// `open(2)` refused: `EEXIST` when the path is taken (a file, or a symbolic link).
        case create(errorNumber: Int32)
        /// The file was created but not fully written; it has been removed again.
        case write(errorNumber: Int32)

        public var errorNumber: Int32 {
            switch self {
            case .create(let number), .write(let number): number
            }
        }

        /// `cannot create '<path>': <strerror>` or `cannot write '<path>': <strerror>`.
        public func message(path: String) -> String {
            switch self {
            case .create(let number): "cannot create '\(path)': \(String(cString: strerror(number)))"
            case .write(let number): "cannot write '\(path)': \(String(cString: strerror(number)))"
            }
        }

        public var description: String { message(path: "the file") }
    }

    /// Creates `path`, which must not exist, with `mode` from the start (`O_CREAT | O_EXCL`, no
    /// window in which a key is readable by others, never through a planted symbolic link), and
    /// writes `bytes` to it. On a failed write the half-written file is removed.
    public static func createFile(_ path: String, containing bytes: [UInt8], mode: mode_t) -> CreateFailure? {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else { return .create(errorNumber: errno) }
        defer { close(descriptor) }
        if let failure = writeAll(bytes, to: descriptor).errorNumber {
            unlink(path)
            return .write(errorNumber: failure)
        }
        return nil
    }
}
