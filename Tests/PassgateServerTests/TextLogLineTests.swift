import Foundation
import PassgateTestSupport
import Logging
import Testing

@testable import PassgateServer

/// `log.format: text` writes caller-supplied values (a Content-Type, a path, a request id):
/// none of them may add a field or a line that Passgate did not write.
@Suite("text log lines: values quoted and escaped")
struct TextLogLineTests {
    static let forged = "text/plain; x=\"1\"\nts level=error logger: forged status=200 \\ end"

    @Test("a value with blanks, quotes, a newline and key=value is one quoted, escaped field")
    func forgedValueIsOneField() throws {
        let sink = MemoryLogSink()
        var logger = Logger(label: "passgate.api") { JSONLogHandler(label: $0, level: .info, sink: sink, json: false) }
        logger[metadataKey: "requestId"] = "r-1"
        logger.info("request", metadata: ["contentType": .string(Self.forged), "path": "/v1/phone number", "status": "415"])
        let line = try #require(sink.contents.first)
        #expect(sink.contents.count == 1 && !line.contains("\n"), "\(line)")
        #expect(line.contains(#" contentType="text/plain; x=\"1\"\nts level=error logger: forged status=200 \\ end" "#), "\(line)")
        let fields = try #require(Self.fields(of: line))
        #expect(fields.map(\.key) == ["contentType", "path", "requestId", "status"], "\(line)")
        #expect(fields[0].value == Self.forged && fields[1].value == "/v1/phone number")
        #expect(fields[2].value == "r-1" && fields[3].value == "415")
        #expect(line.contains(" requestId=r-1 status=415"), "plain values stay bare: \(line)")
    }

    @Test("empty values, control characters, line separators and odd keys cannot split a line or a field")
    func controlsAndKeys() throws {
        var line = ""
        TextLogLine.appendValue("", to: &line)
        #expect(line == #""""#)
        line = ""
        TextLogLine.appendValue("a\u{1B}[31m\r\u{2028}b\tc", to: &line)
        #expect(line == #""a\u{1b}[31m\r\u{2028}b\tc""#)
        let text = TextLogLine.line(
            timestamp: "2026-01-01T00:00:00.000Z", level: .info, label: "passgate.api", message: "two\nlines",
            fields: [(key: "a key=x", value: "v"), (key: "中文", value: "号码 ok")])
        #expect(text == #"2026-01-01T00:00:00.000Z info passgate.api: two\nlines a_key_x=v __="号码 ok""#)
    }

    /// The fields after `msg` as a reader would take them: `key=bare` or `key="escaped"`;
    /// nil when the text does not parse that way.
    static func fields(of line: String) -> [(key: String, value: String)]? {
        guard let start = line.range(of: ": request ")?.upperBound else { return nil }
        var fields: [(key: String, value: String)] = []
        var rest = Substring(line[start...])
        while !rest.isEmpty {
            guard let equals = rest.firstIndex(of: "=") else { return nil }
            let key = String(rest[..<equals])
            rest = rest[rest.index(after: equals)...]
            var value = ""
            if rest.first == "\"" {
                rest = rest.dropFirst()
                while let character = rest.first, character != "\"" {
                    rest = rest.dropFirst()
                    guard character == "\\" else {
                        value.append(character)
                        continue
                    }
                    guard let escaped = rest.first else { return nil }
                    rest = rest.dropFirst()
                    switch escaped {
                    case "n": value.append("\n")
                    case "r": value.append("\r")
                    case "t": value.append("\t")
                    default: value.append(escaped)
                    }
                }
                guard rest.first == "\"" else { return nil }
                rest = rest.dropFirst()
            } else {
                let end = rest.firstIndex(of: " ") ?? rest.endIndex
                value = String(rest[..<end])
                rest = rest[end...]
            }
            fields.append((key, value))
            if rest.first == " " { rest = rest.dropFirst() } else if !rest.isEmpty { return nil }
        }
        return fields
    }
}
