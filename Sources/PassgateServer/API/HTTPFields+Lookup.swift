import HTTPTypes

extension HTTPFields {
    /// The value of the fields named `name`, exactly as `self[name]` gives it: `nil` when there is
    /// none, several joined with ", " ("; " for Cookie) in their order.
    ///
    /// Request handlers read headers through this instead of the subscript: the subscript joins a
    /// lazy map of the matching fields with `joined(separator:)`, which runs unspecialized from the
    /// standard library with a generic metadata lookup per step, about 4k instructions for one
    /// `Authorization` header. This is one pass over the fields and usually no allocation.
    func joinedValue(of name: HTTPField.Name) -> String? {
        var value: String?
        for field in self where field.name == name {
            if let earlier = value {
                value = earlier + (name == .cookie ? "; " : ", ") + field.value
            } else {
                value = field.value
            }
        }
        return value
    }
}
