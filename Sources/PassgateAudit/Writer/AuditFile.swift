import PassgateCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The current audit file, opened for appending. Owned by the writer thread: every call here
/// blocks on the disk, which is why none happens on the caller's (or Swift's cooperative) threads.
struct AuditFile: Sendable {
    let path: String
    private let descriptor: Int32
    private let device: UInt64
    private let inode: UInt64
    /// Bytes in the file: its size when opened plus what this process appended since.
    private(set) var size: Int

    /// Opens `path` for appending, creating it (mode 0640) and its directory (0750) if needed.
    /// A file that does not end in a newline (a line torn by a crash) gets one first, so the
    /// next line starts on a line of its own and the torn one stays reported as malformed.
    init(path: String) throws(AuditLogError) {
        self.path = path
        try Self.createDirectory(Self.directory(of: path))
        var fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_EXCL | O_CLOEXEC, 0o640)
        if fd >= 0 {
            fchmod(fd, 0o640)  // exactly 0640 whatever the umask
            Self.syncDirectory(Self.directory(of: path))  // the new name survives a power failure
        } else if errno == EEXIST {
            fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC)
        }
        guard fd >= 0 else {
            throw Self.failure(path, "cannot open the audit file '\(path)' for appending", errno: errno)
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            _ = posixClose(fd)
            throw Self.failure(path, "cannot stat the audit file '\(path)'", errno: code)
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            _ = posixClose(fd)
            throw AuditLogError(path: path, message: "the audit path '\(path)' is not a regular file: point audit.path at a file such as audit.jsonl")
        }
        descriptor = fd
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int(info.st_size)
        if size > 0 {
            var last: UInt8 = 0
            let reader = open(path, O_RDONLY | O_CLOEXEC)
            if reader >= 0 {
                if pread(reader, &last, 1, off_t(size - 1)) == 1, last != UInt8(ascii: "\n") {
                    size += DescriptorOutput.writeAll([UInt8(ascii: "\n")], to: fd).written
                }
                _ = posixClose(reader)
            }
        }
    }

    /// Appends all of `bytes`; on failure, how many were written before it.
    mutating func append(_ bytes: [UInt8]) -> (written: Int, error: AuditLogError?) {
        let outcome = DescriptorOutput.writeAll(bytes, to: descriptor)
        size += outcome.written
        let error = outcome.errorNumber.map { Self.failure(path, "cannot append to the audit file '\(path)'", errno: $0) }
        return (outcome.written, error)
    }

    /// Flushes what was appended to the disk.
    func sync() throws(AuditLogError) {
        while fsync(descriptor) != 0 {
            if errno == EINTR { continue }
            throw Self.failure(path, "cannot fsync the audit file '\(path)'", errno: errno)
        }
    }

    /// Whether `path` still names this open file: not removed, renamed or replaced by something
    /// else (an operator's `rm`, logrotate, a deleted directory).
    var isStillAtPath: Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        return UInt64(info.st_dev) == device && UInt64(info.st_ino) == inode
    }

    func close() {
        _ = posixClose(descriptor)
    }

    // MARK: Rotation

    /// Renames `path` to a timestamped sibling (`audit-20261121T101500Z-0001.jsonl`) that did not
    /// exist before; returns the new path. Names sort in rotation order, and before `path` itself.
    ///
    /// The new name sorts after every rotated sibling already there, even when the clock stepped
    /// back or retention freed a lower sequence number of the same second: retention deletes by
    /// name order, and must never take the newest file for the oldest. After a step back the stamp
    /// is the newest one used so far, later than the true time, so the file is kept longer, never
    /// shorter.
    static func rotate(_ path: String, nowMilliseconds: Int64) throws(AuditLogError) -> String {
        let naming = AuditFileNaming(path: path)
        var (stamp, first) = (nowMilliseconds - ((nowMilliseconds % 1000) + 1000) % 1000, 1)
        // A listing that fails here fails the rename below too, which reports the reason.
        if let newest = ((try? names(in: naming.directory)) ?? []).compactMap(naming.rotated).max(), newest.milliseconds >= stamp {
            (stamp, first) = (newest.milliseconds, newest.sequence + 1)
        }
        for sequence in first..<min(first + 100_000, 1_000_000_000) {
            let target = naming.path(of: naming.rotatedName(milliseconds: stamp, sequence: sequence))
            var info = stat()
            guard lstat(target, &info) != 0 else { continue }
            guard rename(path, target) == 0 else {
                throw failure(path, "cannot rotate the audit file '\(path)' to '\(target)'", errno: errno)
            }
            syncDirectory(naming.directory)
            return target
        }
        throw AuditLogError(path: path, message: "cannot rotate the audit file '\(path)': every name for \(AuditTime.compactStamp(milliseconds: stamp)) is taken")
    }

    /// Makes a rename or a new file in `directory` durable; best effort.
    static func syncDirectory(_ directory: String) {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        _ = posixClose(fd)
    }

    // MARK: Paths

    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// `mkdir -p` with mode 0750 for every directory it creates.
    static func createDirectory(_ directory: String) throws(AuditLogError) {
        var info = stat()
        if stat(directory, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFDIR else {
                throw AuditLogError(path: directory, message: "cannot create the audit directory '\(directory)': a file of that name is in the way")
            }
            return
        }
        let parent = Self.directory(of: directory)
        if parent != directory { try createDirectory(parent) }
        if mkdir(directory, 0o750) == 0 {
            chmod(directory, 0o750)
            syncDirectory(parent)
        } else if errno != EEXIST {
            throw failure(directory, "cannot create the audit directory '\(directory)'", errno: errno)
        }
    }

    static func failure(_ path: String, _ what: String, errno code: Int32) -> AuditLogError {
        let reason = String(cString: strerror(code))
        var hint = ""
        switch code {
        case EACCES, EPERM: hint = ": give the passgate user write access, or set audit.path elsewhere"
        case ENOSPC, EDQUOT: hint = ": the disk (or quota) is full; free space, records are kept in memory meanwhile"
        case EROFS: hint = ": the file system is read-only"
        case ENOTDIR: hint = ": a path component is a file, not a directory"
        default: break
        }
        return AuditLogError(path: path, message: "\(what): \(reason)\(hint)", errno: code)
    }
}

// `close` is also the name of a member here; this spells out the C function.
@inline(__always) private func posixClose(_ fd: Int32) -> Int32 {
    close(fd)
}
