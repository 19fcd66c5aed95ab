import OpenSSLCrypto
import Testing

/// Expects `body` to throw an `OpenSSLError` for `operation` whose reason mentions every one of
/// `fragments` (case-insensitive); returns the error for further checks.
@discardableResult
func expectOpenSSLError<T>(
    _ operation: OpenSSLError.Operation,
    mentioning fragments: [String] = [],
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws -> T
) -> OpenSSLError? {
    let error = #expect(throws: OpenSSLError.self, sourceLocation: sourceLocation) {
        _ = try body()
    }
    guard let error else { return nil }
    #expect(error.operation == operation, "\(error)", sourceLocation: sourceLocation)
    for fragment in fragments {
        #expect(
            error.reason.lowercased().contains(fragment.lowercased()),
            "reason should mention '\(fragment)': \(error.reason)",
            sourceLocation: sourceLocation
        )
    }
    return error
}
