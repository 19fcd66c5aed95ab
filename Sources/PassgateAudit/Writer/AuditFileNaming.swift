/// The names of an audit file's rotated siblings: `<stem>-<UTC stamp>-<sequence><suffix>` beside
/// `<stem><suffix>`, e.g. `audit-20261121T101500Z-0001.jsonl` beside `audit.jsonl`.
///
/// Rotation makes the names and retention recognizes them from this one definition, so retention
/// only ever deletes names the writer could have made for this very path: not the current file,
/// not another instance's files named after another path, not an operator's copies.
struct AuditFileNaming: Sendable, Equatable {
    /// The directory of the current file and its rotated siblings.
    let directory: String
    /// The current file's name without `.jsonl` (`audit`).
    let stem: String
    /// `.jsonl`, or empty for a path that does not end in it.
    let suffix: String

    init(path: String) {
        directory = AuditFile.directory(of: path)
        let name = String(path.split(separator: "/").last ?? Substring(path))
        (stem, suffix) = name.hasSuffix(".jsonl") ? (String(name.dropLast(6)), ".jsonl") : (name, "")
    }

    /// The `sequence`th name for a rotation at `milliseconds` (UTC, to the second). Sequences are
    /// padded to four digits, so names of one second sort in sequence order up to 9999.
    func rotatedName(milliseconds: Int64, sequence: Int) -> String {
        let number = String(sequence)
        let padded = String(repeating: "0", count: max(0, 4 - number.count)) + number
        return "\(stem)-\(AuditTime.compactStamp(milliseconds: milliseconds))-\(padded)\(suffix)"
    }

    func path(of name: String) -> String {
        directory.hasSuffix("/") ? directory + name : "\(directory)/\(name)"
    }

    /// A rotated file as its name tells it.
    struct Rotated: Sendable, Equatable, Comparable {
        let name: String
        /// The rotation time in the name, epoch milliseconds (whole seconds).
        let milliseconds: Int64
        let sequence: Int

        /// Rotation order: by stamp, then by sequence as a number (`-10000` after `-9999`).
        static func < (left: Rotated, right: Rotated) -> Bool {
            (left.milliseconds, left.sequence, left.name) < (right.milliseconds, right.sequence, right.name)
        }
    }

    /// `name` read as one of this file's rotated siblings; `nil` for every other name.
    func rotated(_ name: String) -> Rotated? {
        let prefix = "\(stem)-"
        guard name.utf8.count > prefix.utf8.count + suffix.utf8.count, name.hasPrefix(prefix), name.hasSuffix(suffix) else { return nil }
        // `20261121T101500Z-0001`: a 16-character stamp, a dash, then the sequence (4 to 9 digits).
        let middle = Array(name.utf8.dropFirst(prefix.utf8.count).dropLast(suffix.utf8.count))
        guard (21...26).contains(middle.count), middle[16] == UInt8(ascii: "-") else { return nil }
        let digits = middle[17...]
        guard digits.allSatisfy({ $0 >= 48 && $0 <= 57 }), let sequence = Int(String(decoding: digits, as: UTF8.self)), sequence > 0,
              let milliseconds = Self.stampMilliseconds(middle[0..<16])
        else { return nil }
        return Rotated(name: name, milliseconds: milliseconds, sequence: sequence)
    }

    /// `20261121T101500Z` as epoch milliseconds; `nil` unless it is a real UTC time in that form.
    private static func stampMilliseconds(_ stamp: ArraySlice<UInt8>) -> Int64? {
        let text = Array(stamp)
        guard text[8] == UInt8(ascii: "T"), text[15] == UInt8(ascii: "Z") else { return nil }
        func part(_ range: Range<Int>) -> String { String(decoding: text[range], as: UTF8.self) }
        let iso = "\(part(0..<4))-\(part(4..<6))-\(part(6..<8))T\(part(9..<11)):\(part(11..<13)):\(part(13..<15))Z"
        return AuditTime.parseISO8601(iso)
    }
}
