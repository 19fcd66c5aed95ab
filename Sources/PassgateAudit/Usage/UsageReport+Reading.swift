import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a usage report could not be made.
public struct UsageReportError: Error, CustomStringConvertible, Sendable {
    public enum Kind: Sendable { case notFound, unreadable }

    public var kind: Kind
    public var message: String

    public var description: String { message }
}

extension UsageReport {
    /// Reads every `*.jsonl` file in `directory` (the current audit file and the rotated ones)
    /// and counts the records `query` selects. Malformed lines are counted, not fatal.
    ///
    /// A rotated file holds only calls made before its rotation stamp, so files rotated more
    /// than a day (a generous margin for clock steps) before the range starts are skipped.
    public static func read(directory: String, query: UsageQuery) throws(UsageReportError) -> UsageReport {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) else {
            throw UsageReportError(
                kind: .notFound, message: "audit directory '\(directory)' does not exist: check audit.path in the configuration, or pass --audit-dir")
        }
        guard isDirectory.boolValue else {
            throw UsageReportError(
                kind: .notFound, message: "'\(directory)' is not a directory: --audit-dir takes the directory that holds audit.jsonl and its rotated files")
        }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".jsonl") }.sorted()
        } catch {
            throw UsageReportError(kind: .unreadable, message: "cannot list the audit directory '\(directory)': \(Self.reason(error))")
        }
        var report = UsageReport(query: query)
        let earliestUseful = query.startMilliseconds - AuditTime.millisecondsPerDay
        for name in names {
            let path = directory.hasSuffix("/") ? directory + name : "\(directory)/\(name)"
            if let rotated = rotationMilliseconds(name), rotated < earliestUseful {
                report.filesSkipped.append(path)
                continue
            }
            try report.readFile(path)
            report.filesRead.append(path)
        }
        return report
    }

    /// The stamp of a rotated file's name (`audit-20261121T101500Z-0001.jsonl`), as epoch ms.
    static func rotationMilliseconds(_ name: String) -> Int64? {
        let parts = name.dropLast(".jsonl".count).split(separator: "-")
        guard parts.count >= 3, let stamp = parts.dropLast().last, stamp.count == 16, parts.last?.allSatisfy(\.isNumber) == true else { return nil }
        let text = Array(stamp)
        guard text[8] == "T", text[15] == "Z" else { return nil }
        let (date, time) = (String(text[0..<8]), String(text[9..<15]))
        let iso = "\(date.prefix(4))-\(date.dropFirst(4).prefix(2))-\(date.suffix(2))T\(time.prefix(2)):\(time.dropFirst(2).prefix(2)):\(time.suffix(2))Z"
        return AuditTime.parseISO8601(iso)
    }

    /// Streams one file line by line (1 MiB reads), so file size does not matter.
    mutating func readFile(_ path: String) throws(UsageReportError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw UsageReportError(kind: .unreadable, message: "cannot read the audit file '\(path)': \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var carry: [UInt8] = []
        var lineNumber = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { posixRead(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw UsageReportError(kind: .unreadable, message: "cannot read the audit file '\(path)': \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            var start = 0
            for index in 0..<count where buffer[index] == UInt8(ascii: "\n") {
                lineNumber += 1
                if carry.isEmpty {
                    consume(buffer[start..<index], file: path, line: lineNumber, complete: true)
                } else {
                    carry.append(contentsOf: buffer[start..<index])
                    consume(carry[...], file: path, line: lineNumber, complete: true)
                    carry.removeAll(keepingCapacity: true)
                }
                start = index + 1
            }
            carry.append(contentsOf: buffer[start..<count])
        }
        if !carry.isEmpty {
            consume(carry[...], file: path, line: lineNumber + 1, complete: false)
        }
    }

    private mutating func consume(_ line: ArraySlice<UInt8>, file: String, line number: Int, complete: Bool) {
        guard line.contains(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\r") && $0 != UInt8(ascii: "\t") }) else { return }
        switch AuditRecord.read(line) {
        case .success(let record):
            add(record)
        case .failure(let problem):
            let reason = complete ? "not an audit record (\(problem.reason))" : "incomplete last line (torn by a crash or still being written)"
            addMalformed(file: file, line: number, reason: reason)
        }
    }


    static func reason(_ error: any Error) -> String {
        (error as NSError).localizedDescription
    }
}

/// `read(2)`; `UsageReport.read` shadows the name inside the extension.
private func posixRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}
