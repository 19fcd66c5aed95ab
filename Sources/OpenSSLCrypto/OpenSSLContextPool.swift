import COpenSSL
import Synchronization

/// Spare OpenSSL contexts of one kind (`EVP_MD_CTX`, keyed `EVP_MAC_CTX`), kept for reuse so that
/// an operation on the request path borrows one instead of allocating and freeing a context (and
/// the provider's state behind it) every time. Bounded: when more callers return contexts at once
/// than `limit`, the rest are freed.
///
/// `@unchecked Sendable`: a context moves between threads only through `spare`'s mutex, and only
/// the thread that took it uses it until it gives it back or frees it.
final class OpenSSLContextPool: @unchecked Sendable {
    private struct Spare: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    private let spare = Mutex<[Spare]>([])
    private let limit: Int
    private let free: @convention(c) (OpaquePointer?) -> Void

    /// `free` is OpenSSL's free function for the kind (`EVP_MD_CTX_free`, `EVP_MAC_CTX_free`).
    init(limit: Int = 16, free: @escaping @convention(c) (OpaquePointer?) -> Void) {
        self.limit = limit
        self.free = free
    }

    deinit {
        for context in spare.withLock({ $0 }) { free(context.pointer) }
    }

    /// A spare context, or `nil` when none is left (the caller makes one).
    func take() -> OpaquePointer? {
        spare.withLock { $0.popLast()?.pointer }
    }

    /// Returns a context that did its work; one that failed must be ``discard(_:)``ed instead.
    func give(_ context: OpaquePointer) {
        let returned = Spare(pointer: context)
        let kept = spare.withLock { spare in
            guard spare.count < limit else { return false }
            spare.append(returned)
            return true
        }
        if !kept { free(context) }
    }

    /// Frees a context not to be trusted again.
    func discard(_ context: OpaquePointer) {
        free(context)
    }
}
