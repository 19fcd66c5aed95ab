import COpenSSL

/// A failed OpenSSL operation: what we were doing, why it failed in our words, and the
/// entries OpenSSL left on its per-thread error queue (for logs and bug reports).
public struct OpenSSLError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The operation that failed; stable, safe as a metrics label.
    public enum Operation: String, Sendable {
        case digest, hmac, random, keyLoad, keyGenerate, keyExport, sign, verify, encrypt, decrypt, certificateLoad
        /// Loading an OpenSSL provider module or fetching a cipher from it (single DES: `legacy`).
        case cipherLoad
    }

    public let operation: Operation
    /// What went wrong and, where we know, what to check.
    public let reason: String
    /// OpenSSL's own error strings, oldest first (`error:…:lib::reason`).
    public let openSSLErrors: [String]

    public init(operation: Operation, reason: String, openSSLErrors: [String] = []) {
        self.operation = operation
        self.reason = reason
        self.openSSLErrors = openSSLErrors
    }

    public var description: String {
        openSSLErrors.isEmpty
            ? "\(operation.rawValue): \(reason)"
            : "\(operation.rawValue): \(reason) [\(openSSLErrors.joined(separator: "; "))]"
    }
}

/// OpenSSL keeps errors in a per-thread queue, and Swift tasks move between threads between
/// suspension points. Every operation here is synchronous, so clearing the queue before and
/// draining it right after, on the same thread, keeps one operation's errors out of another's.
enum OpenSSLErrorQueue {
    @inline(__always)
    static func run<T>(_ body: () throws -> T) rethrows -> T {
        COpenSSL_clear_errors()
        defer { COpenSSL_clear_errors() }
        return try body()
    }

    /// Drains the calling thread's queue into readable strings.
    static func drain() -> [String] {
        var messages: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            messages.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return messages
    }

    /// An error for `operation` carrying whatever OpenSSL queued on this thread.
    static func failure(_ operation: OpenSSLError.Operation, _ reason: String) -> OpenSSLError {
        OpenSSLError(operation: operation, reason: reason, openSSLErrors: drain())
    }
}
