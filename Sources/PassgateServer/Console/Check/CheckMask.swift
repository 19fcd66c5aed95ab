import PassgateCore

/// How the integration check shows a request or reply without the token or number in it: every
/// occurrence of the pasted token and phone (as sent: raw, percent-encoded, JSON-escaped) and of
/// the decrypted number becomes its mask, and so does any other 11-digit mainland number and any
/// value the provider's own decryption turns into a number. What is left keeps its structure, so
/// a string to sign still lines up with the provider's, and a signature stays whole.
///
/// `Redaction.redact` is not used here: it hides every run of five or more digits, and a result
/// code such as 103101 is what this page is for.
struct CheckMask: Sendable {
    /// Values never shown: the token, the phone, the decrypted number. Matched longest first.
    private var values: [(value: String, mask: String)] = []
    /// The provider's decryption of a value it sends encrypted, nil when it is not a number of its.
    private var decrypt: (@Sendable (String) -> String?)?
    /// Whether any long opaque value (64 or more base64 or hex characters) is hidden too: for a
    /// reply, where such a value is a ciphertext; never for a request, whose signature must show.
    private var hidesOpaqueValues: Bool

    init(token: String?, phone: String?, decrypt: (@Sendable (String) -> String?)? = nil, hidesOpaqueValues: Bool = false) {
        self.decrypt = decrypt
        self.hidesOpaqueValues = hidesOpaqueValues
        if let token, !token.isEmpty { hide(token, as: Self.mask(token: token)) }
        if let phone, !phone.isEmpty { hide(phone, as: Self.mask(phone: phone)) }
    }

    /// For a reply: also hides values `decrypt` turns into a number, and every other long
    /// opaque value (a ciphertext it cannot open).
    mutating func revealsNoOpaqueValue(decrypt: @escaping @Sendable (String) -> String?) {
        self.decrypt = decrypt
        hidesOpaqueValues = true
    }

    /// Hides `value` (and its encoded forms) wherever it appears from now on.
    mutating func hide(_ value: String, as mask: String) {
        guard !value.isEmpty else { return }
        for form in Set([value, PercentEncoding.encode(value), PercentEncoding.encode(value, spaceAsPlus: true), value.replacing("/", with: "\\/")]) {
            values.append((form, mask))
        }
        values.sort { $0.value.utf8.count > $1.value.utf8.count }
    }

    /// A token as `abcd…wxyz (40 chars)`: enough to tell two tokens apart, never the token.
    static func mask(token: String) -> String {
        let characters = Array(token)
        let kept = characters.count >= 16 ? 4 : characters.count >= 10 ? 2 : 0
        let ends = kept == 0 ? "…" : "\(String(characters.prefix(kept)))…\(String(characters.suffix(kept)))"
        return "\(ends) (\(characters.count) chars)"
    }

    /// A number as `138****8000`; anything that is not one keeps only its length.
    static func mask(phone: String) -> String {
        MSISDN.isMainland(phone) ? MSISDN.mask(phone) : "<\(phone.count) characters>"
    }

    /// `text` with every value above masked.
    func apply(_ text: String) -> String {
        var text = text
        for (value, mask) in values where text.contains(value) { text = text.replacing(value, with: mask) }
        return maskRuns(text)
    }

    /// Numbers in runs of digits (11, or 13 after `86`), and runs of base64 or hex characters
    /// that the provider decrypts to a number (or, for a reply, any long one).
    private func maskRuns(_ text: String) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        var run = ""
        func flush() {
            output += maskRun(run)
            run = ""
        }
        let characters = Array(text)
        for (index, character) in characters.enumerated() {
            if Self.isRunCharacter(character) || (character == "=" && Self.isPadding(at: index, in: characters)) {
                run.append(character)
            } else {
                flush()
                output.append(character)
            }
        }
        flush()
        return output
    }

    /// A character of a base64 (standard or URL-safe) or hex value, padding aside.
    private static func isRunCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || "+/_-".contains(character))
    }

    /// Whether the `=` at `index` ends a base64 value (`…QQ==`) rather than separating a name
    /// from its value (`msisdn=…`): only `=` follows it up to a character outside any value.
    private static func isPadding(at index: Int, in characters: [Character]) -> Bool {
        guard index > 0, isRunCharacter(characters[index - 1]) || characters[index - 1] == "=" else { return false }
        var next = index + 1
        while next < characters.count, characters[next] == "=" { next += 1 }
        return next == characters.count || !isRunCharacter(characters[next])
    }

    private func maskRun(_ run: String) -> String {
        guard run.utf8.count >= 11 else { return run }
        var masked = maskDigits(run)
        if masked == run, run.utf8.count >= 16 {
            if let decrypt, let number = decrypt(run), MSISDN.isMainland(number) {
                masked = "<encrypted number: \(run.utf8.count) chars>"
            } else if hidesOpaqueValues, run.utf8.count >= 64 {
                masked = "<opaque value: \(run.utf8.count) chars>"
            }
        }
        return masked
    }

    /// Every maximal digit run in `run` that is a mainland number (or `86` and one), masked.
    private func maskDigits(_ run: String) -> String {
        guard run.contains(where: \.isNumber) else { return run }
        var output = "", digits = ""
        func flush() {
            if MSISDN.isMainland(digits) {
                output += MSISDN.mask(digits)
            } else if digits.utf8.count == 13, digits.hasPrefix("86"), MSISDN.isMainland(digits.dropFirst(2)) {
                output += "86" + MSISDN.mask(String(digits.dropFirst(2)))
            } else {
                output += digits
            }
            digits = ""
        }
        for character in run {
            if character.isASCII, character.isNumber {
                digits.append(character)
            } else {
                flush()
                output.append(character)
            }
        }
        flush()
        return output
    }
}
