/// Why the audit log could not be opened or written: what went wrong, on which path, and the
/// system's reason.
public struct AuditLogError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The file or directory involved.
    public var path: String
    /// What Passgate was doing and how to fix it.
    public var message: String
    /// `errno` of the failed system call, when there was one.
    public var errno: Int32?

    public init(path: String, message: String, errno: Int32? = nil) {
        self.path = path
        self.message = message
        self.errno = errno
    }

    public var description: String { message }
}
