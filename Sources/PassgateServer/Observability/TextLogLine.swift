import Logging

/// One `log.format: text` line: `ts level logger: msg key=value…`.
///
/// Values come from callers (a `Content-Type`, a path, a client's request id) and are written so
/// that none can forge a field or a line: a value that is empty or holds a blank, `"`, `=`, `\`
/// or a control or line-separator character is written in double quotes with `\"`, `\\`, `\n`,
/// `\r`, `\t` and `\u{…}` escapes; others are written bare. The message has its control
/// characters escaped too (it is not quoted: it is the code's own text), and keys keep only
/// `[A-Za-z0-9._-]`.
enum TextLogLine {
    static func line(
        timestamp: String, level: Logger.Level, label: String, message: String, fields: [(key: String, value: Logger.Metadata.Value)]
    ) -> String {
        var line = "\(timestamp) \(level) \(label): "
        line.reserveCapacity(line.utf8.count + message.utf8.count + fields.count * 24)
        appendEscaped(message, to: &line)
        for field in fields {
            line.append(" ")
            appendKey(field.key, to: &line)
            line.append("=")
            appendValue(field.value.description, to: &line)
        }
        return line
    }

    /// `text` bare when nothing in it could be read as a separator, else quoted and escaped.
    static func appendValue(_ text: String, to line: inout String) {
        guard text.isEmpty || text.unicodeScalars.contains(where: needsQuotes) else {
            line.append(text)
            return
        }
        line.append("\"")
        appendEscaped(text, to: &line)
        line.append("\"")
    }

    private static func appendKey(_ key: String, to line: inout String) {
        for scalar in key.unicodeScalars {
            let kept = scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "._-".unicodeScalars.contains(scalar))
            line.unicodeScalars.append(kept ? scalar : "_")
        }
    }

    private static func appendEscaped(_ text: String, to line: inout String) {
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": line.append("\\\"")
            case "\\": line.append("\\\\")
            case "\n": line.append("\\n")
            case "\r": line.append("\\r")
            case "\t": line.append("\\t")
            case _ where isControl(scalar): line.append("\\u{\(String(scalar.value, radix: 16))}")
            default: line.unicodeScalars.append(scalar)
            }
        }
    }

    private static func needsQuotes(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\"" || scalar == "=" || scalar == "\\" || scalar.properties.isWhitespace || isControl(scalar)
    }

    /// C0, DEL, C1, and the Unicode line and paragraph separators a terminal may break lines at.
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
    }
}
