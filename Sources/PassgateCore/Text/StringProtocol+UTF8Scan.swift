extension StringProtocol {
    /// Whether every UTF-8 byte of the text satisfies `predicate`; `true` for empty text.
    ///
    /// Scanned over the text's contiguous storage, which every native `String` and `Substring`
    /// has: `utf8.allSatisfy` steps `String.UTF8View` indices instead, several times the cost,
    /// and request validation runs this over every field of every request.
    @inlinable
    public func allUTF8(_ predicate: (UInt8) -> Bool) -> Bool {
        utf8.withContiguousStorageIfAvailable { $0.allSatisfy(predicate) } ?? utf8.allSatisfy(predicate)
    }
}
