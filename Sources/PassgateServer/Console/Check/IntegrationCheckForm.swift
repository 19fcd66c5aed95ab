import Foundation
import PassgateCore

/// What the integration check's form sent, held to the same rules as a REST request: an app,
/// a token, the `providerFields` as `NAME=VALUE` lines, a phone number for a verification, and
/// whether to explain or exchange. A problem names the form's field.
struct IntegrationCheckForm: Sendable {
    enum Mode: String, Sendable, CaseIterable {
        /// Sign the request and show it; nothing is sent.
        case explain
        /// Send it through the normal exchange: the token is spent.
        case exchange
    }

    /// A form field with what is wrong with it, shown next to the form.
    struct Problem: Error, Sendable, Equatable {
        /// The form field's name (`token`, `providerFields`, ...).
        var field: String
        var message: String
    }

    /// The form's field names, for the page and the problems.
    enum Field {
        static let appId = "appId", token = "token", providerFields = "providerFields", phoneNumber = "phoneNumber", mode = "mode"
    }

    /// A pasted token is at most this long; the REST API's own limit (PassgateAPI) is lower for every provider.
    static let maxTokenBytes = 4096
    /// `providerFields` lines at most.
    static let maxFieldLines = 32

    var appId: String
    var token: String
    /// For a verification; nil: a phone-number exchange.
    var phoneNumber: String?
    var providerFields: [String: String]
    var mode: Mode

    init(appId: String, token: String, phoneNumber: String? = nil, providerFields: [String: String] = [:], mode: Mode) {
        self.appId = appId
        self.token = token
        self.phoneNumber = phoneNumber
        self.providerFields = providerFields
        self.mode = mode
    }

    /// From the posted form's values; surrounding blanks of the token and phone are dropped
    /// (a paste often brings a line break), blanks inside are refused.
    init(form: [String: String]) throws(Problem) {
        let appId = form[Field.appId, default: ""].trimmed
        guard !appId.isEmpty else { throw Problem(field: Field.appId, message: "Pick an app.") }
        let token = form[Field.token, default: ""].trimmed
        guard !token.isEmpty else { throw Problem(field: Field.token, message: "Paste the token the SDK returned.") }
        guard token.utf8.count <= Self.maxTokenBytes else {
            throw Problem(field: Field.token, message: "The token is \(token.utf8.count) bytes long; tokens are at most \(Self.maxTokenBytes).")
        }
        guard !token.contains(where: { $0.isWhitespace }) else {
            throw Problem(
                field: Field.token,
                message: "The token contains blanks or line breaks; providers answer such tokens with misleading codes (CMCC: 103119/103113).")
        }
        let phone = form[Field.phoneNumber, default: ""].trimmed
        if !phone.isEmpty, !MSISDN.isMainland(phone) {
            throw Problem(
                field: Field.phoneNumber,
                message: "Give an 11-digit mainland mobile number (1[3-9] and 9 digits), or leave it empty for a phone-number exchange.")
        }
        guard let mode = Mode(rawValue: form[Field.mode, default: Mode.explain.rawValue]) else {
            throw Problem(field: Field.mode, message: "Choose explain or exchange.")
        }
        self.init(
            appId: appId, token: token, phoneNumber: phone.isEmpty ? nil : phone,
            providerFields: try Self.fields(form[Field.providerFields, default: ""]), mode: mode)
    }

    /// `NAME=VALUE` lines (blank lines skipped) as `providerFields`; the provider's own
    /// declaration checks names and values afterwards, as for a REST request.
    static func fields(_ text: String) throws(Problem) -> [String: String] {
        let lines = text.split(whereSeparator: \.isNewline).map { String($0).trimmed }.filter { !$0.isEmpty }
        guard lines.count <= maxFieldLines else {
            throw Problem(field: Field.providerFields, message: "At most \(maxFieldLines) lines, one NAME=VALUE each (got \(lines.count)).")
        }
        var fields: [String: String] = [:]
        for (index, line) in lines.enumerated() {
            guard let equals = line.firstIndex(of: "="), equals != line.startIndex else {
                throw Problem(field: Field.providerFields, message: "Line \(index + 1) is not NAME=VALUE.")
            }
            let name = String(line[..<equals])
            guard fields[name] == nil else { throw Problem(field: Field.providerFields, message: "Line \(index + 1): \(name) is given twice.") }
            fields[name] = String(line[line.index(after: equals)...])
        }
        return fields
    }

    /// What hides this form's token and number on the page; with `declared` (the provider's
    /// fields), also every value of a single-use field and any value of 16 or more characters:
    /// a field may be a second credential (a carrier's access token), shown as a token is.
    func mask(declared: [ProviderField] = []) -> CheckMask {
        var mask = CheckMask(token: token, phone: phoneNumber)
        let singleUse = Set(declared.filter(\.singleUse).map(\.name))
        for (name, value) in providerFields where singleUse.contains(name) || value.count >= 16 {
            mask.hide(value, as: CheckMask.mask(token: value))
        }
        return mask
    }
}

extension String {
    /// Without surrounding blanks and line breaks.
    fileprivate var trimmed: String { trimmingCharacters(in: .whitespacesAndNewlines) }
}
