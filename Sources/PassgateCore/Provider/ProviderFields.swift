/// A request's `providerFields`, checked against its provider's declaration: what the provider
/// reads (`CallContext.providerFields`) and what the replay key covers (``singleUse``).
///
/// Prints only the names it holds (``RedactedDescription``): a value may be a single-use
/// credential, so it never reaches a log line, an audit record or an error message.
public struct ProviderFields: Sendable, Equatable, RedactedDescription {
    /// The request body's member that carries them; messages name `providerFields.<name>`.
    public static let member = "providerFields"
    /// No fields: what every request to a provider that declares none carries.
    public static let none = ProviderFields(entries: [])

    private struct Entry: Sendable, Equatable {
        let name: String
        let value: String
        let singleUse: Bool
    }

    /// Sorted by name: the canonical order of the replay key.
    private let entries: [Entry]

    private init(entries: [Entry]) {
        self.entries = entries
    }

    /// `sent` (the body's `providerFields`, keys already 1-64 letters, digits, `_` or `-`) held to
    /// the fields `provider` declares: every key declared, every required one present, every
    /// value in its format. Each refusal is an `invalid_request` naming `providerFields.<key>`.
    public init(checking sent: [String: String], against declared: [ProviderField], provider: String) throws(PassgateError) {
        if sent.isEmpty && declared.isEmpty {
            self = .none
            return
        }
        let undeclared = sent.keys.filter { name in !declared.contains { $0.name == name } }.sorted()
        if let first = undeclared.first {
            let reads = declared.isEmpty
                ? "it reads none, so send no providerFields for this app"
                : "it reads \(declared.map(\.name).sorted().joined(separator: ", "))"
            // The first few named: the message stays short however many keys were sent.
            let others = switch undeclared.count {
            case 1: ""
            case 2: " (nor is \(undeclared[1]))"
            case 3...4: " (nor are \(undeclared.dropFirst().joined(separator: ", ")))"
            default: " (nor are \(undeclared[1...3].joined(separator: ", ")) and \(undeclared.count - 4) more)"
            }
            throw .invalidRequest(field: Self.path(first), "is not a field the \(provider) provider reads\(others); \(reads)")
        }
        var entries: [Entry] = []
        for field in declared.sorted(by: { $0.name < $1.name }) {
            guard let value = sent[field.name] else {
                if field.required { throw .invalidRequest(field: Self.path(field.name), "is required by the \(provider) provider; pass the value its SDK returned") }
                continue
            }
            guard field.accepts(value) else {
                throw .invalidRequest(field: Self.path(field.name), value.isEmpty ? "is empty; pass the value the SDK returned" : field.formatDescription)
            }
            entries.append(Entry(name: field.name, value: value, singleUse: field.singleUse))
        }
        self.entries = entries
    }

    /// `providerFields.<name>`, the field a message names.
    public static func path(_ name: String) -> String { "\(member).\(name)" }

    /// The value sent for `name`; nil when the field is optional and was not sent.
    public subscript(name: String) -> String? { entries.first { $0.name == name }?.value }

    public var isEmpty: Bool { entries.isEmpty }

    /// The names sent, sorted.
    public var names: [String] { entries.map(\.name) }

    /// The values spent with the token, sorted by name: the replay key covers these and no others.
    public var singleUse: [(name: String, value: String)] {
        entries.filter(\.singleUse).map { (name: $0.name, value: $0.value) }
    }

    public var redactedFields: [(label: String, value: String)] { [("names", names.joined(separator: ","))] }
}
