/// A piece of HTML that is safe by construction: the literal parts are the console's own markup,
/// and every `String` interpolated into it is escaped (`&`, `<`, `>`, `"`, `'`), so a value from a
/// request, the configuration or a provider's reply can never become markup, in text or in a
/// quoted attribute. Only another `HTML` goes in as it is.
///
/// ```swift
/// let cell: HTML = "<td class=\"code\">\(code)</td>"   // `code` is escaped
/// ```
public struct HTML: Sendable, Equatable, CustomStringConvertible, ExpressibleByStringInterpolation {
    /// The markup.
    public private(set) var rendered: String

    /// Markup written in the source (a literal), taken as it is.
    public init(stringLiteral literal: String) {
        rendered = literal
    }

    public init(stringInterpolation: Interpolation) {
        rendered = stringInterpolation.rendered
    }

    /// `text`, escaped: the way to turn any value into HTML.
    public init(text: String) {
        rendered = Self.escape(text)
    }

    public var description: String { rendered }

    /// Builds `HTML` from literal markup and escaped values; only `String`, integers and `HTML`
    /// can be interpolated, so nothing reaches the page without choosing how it is written.
    public struct Interpolation: StringInterpolationProtocol {
        fileprivate var rendered = ""

        public init(literalCapacity: Int, interpolationCount: Int) {
            rendered.reserveCapacity(literalCapacity + interpolationCount * 16)
        }

        public mutating func appendLiteral(_ literal: String) { rendered += literal }

        /// Text: escaped.
        public mutating func appendInterpolation(_ text: String) { rendered += HTML.escape(text) }

        /// A number, in decimal digits (nothing to escape).
        public mutating func appendInterpolation(_ number: some BinaryInteger) { rendered += String(number) }

        /// Markup already made safe.
        public mutating func appendInterpolation(_ html: HTML) { rendered += html.rendered }

        /// Pieces of markup one after the other (table rows, list items).
        public mutating func appendInterpolation(_ pieces: [HTML]) {
            for piece in pieces { rendered += piece.rendered }
        }
    }

    /// `text` with the five characters that can end a text node or a quoted attribute replaced.
    public static func escape(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 }) else { return text }
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count + 16)
        for character in text.unicodeScalars {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }

    /// `pieces` one after the other.
    public static func joined(_ pieces: [HTML]) -> HTML {
        "\(pieces)"
    }
}
