import COpenSSL

/// Algorithms fetched once from the default provider. OpenSSL 3 looks an algorithm up (under a
/// lock) every time a name or legacy `EVP_sha256()` is used; fetching once avoids that on the
/// hot path.
///
/// `@unchecked Sendable`: fetched `EVP_MD`/`EVP_MAC`/`EVP_CIPHER` objects are immutable, reference-counted
/// and documented as safe to share between threads; we never free them (process lifetime).
final class FetchedAlgorithms: @unchecked Sendable {
    let md5: OpaquePointer?
    let sha256: OpaquePointer?
    let hmac: OpaquePointer?
    let aes256GCM: OpaquePointer?
    let aes128CBC: OpaquePointer?
    let aes256CBC: OpaquePointer?

    static let shared = FetchedAlgorithms()

    private init() {
        md5 = EVP_MD_fetch(nil, "MD5", nil)
        sha256 = EVP_MD_fetch(nil, "SHA256", nil)
        hmac = EVP_MAC_fetch(nil, "HMAC", nil)
        aes256GCM = EVP_CIPHER_fetch(nil, "AES-256-GCM", nil)
        aes128CBC = EVP_CIPHER_fetch(nil, "AES-128-CBC", nil)
        aes256CBC = EVP_CIPHER_fetch(nil, "AES-256-CBC", nil)
        ERR_clear_error()
    }
}
