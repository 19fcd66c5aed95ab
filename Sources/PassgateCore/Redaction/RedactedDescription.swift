/// A value that holds a secret, a key, a token or a phone number, and prints only what is safe.
///
/// Every way Swift has to print a value goes through one of this protocol's three members:
/// string interpolation and `String(describing:)` (``description``), `String(reflecting:)` and
/// the debug print of an enclosing value (``debugDescription``), `dump` and `Mirror` (``customMirror``).
/// Left to the defaults, each of them would print every stored property, the secret among them,
/// whenever a value is logged or interpolated by mistake. A conforming type names the facts safe
/// to print instead (ids, modes, lengths) and all three show those and nothing else.
public protocol RedactedDescription: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// What may be printed, in order, as (label, value) pairs: never a secret, a key, a token, a
    /// phone number or a signature, nor anything derived from one that could be reversed.
    var redactedFields: [(label: String, value: String)] { get }
}

extension RedactedDescription {
    /// `TypeName(label: value, ..., secrets redacted)`.
    public var description: String {
        var text = "\(Self.self)("
        for field in redactedFields { text += "\(field.label): \(field.value), " }
        return text + "secrets redacted)"
    }

    public var debugDescription: String { description }

    /// Only the safe fields, so `dump` and debuggers that walk mirrors see nothing else.
    public var customMirror: Mirror {
        Mirror(self, children: redactedFields.map { Mirror.Child(label: $0.label, value: $0.value) }, displayStyle: .struct)
    }
}
