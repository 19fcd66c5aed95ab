#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Listing the audit directory, for rotation (the next name) and retention (what to delete).
extension AuditFile {
    /// The names in `directory`, without `.` and `..`.
    static func names(in directory: String) throws(AuditLogError) -> [String] {
        guard let stream = opendir(directory) else {
            throw failure(directory, "cannot list the audit directory '\(directory)'", errno: errno)
        }
        defer { closedir(stream) }
        var names: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(stream) else {
                guard errno == 0 else { throw failure(directory, "cannot list the audit directory '\(directory)'", errno: errno) }
                return names
            }
            let name = withUnsafePointer(to: entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: pointer.pointee)) { String(cString: $0) }
            }
            if name != ".", name != ".." { names.append(name) }
        }
    }
}
