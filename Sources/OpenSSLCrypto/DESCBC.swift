import COpenSSL

/// Single DES in CBC mode with PKCS#5 padding, for a provider protocol that still encrypts this
/// way (MobTech's number). Obsolete and weak: never a choice of ours, only what a provider sends.
///
/// OpenSSL 3 keeps single DES in its `legacy` provider module. Loading that module into the
/// process's default library context would make every later fetch able to land on legacy
/// implementations, so DES-CBC gets a library context of its own, with `legacy` and `default`
/// loaded into it and nothing else using it; the cipher is fetched from it once. Unauthenticated:
/// a wrong key usually fails the padding check but can yield garbage, so callers validate the plaintext.
public struct DESCBC: Sendable {
    /// Key and IV length in bytes.
    public static let keyLength = 8
    public static let blockLength = 8

    /// The cipher from OpenSSL's own module directory (or `OPENSSL_MODULES`), loaded the first
    /// time it is asked for; a failure says which module is missing and what to install.
    public static let shared: Result<DESCBC, OpenSSLError> = load()

    private let loaded: Loaded

    /// Loads the `legacy` and `default` providers into a new library context and fetches DES-CBC
    /// from it. `modulesDirectory` replaces OpenSSL's module directory for this context only
    /// (tests point it at an empty directory to see the missing-module failure).
    public static func load(modulesDirectory: String? = nil) -> Result<DESCBC, OpenSSLError> {
        Result { () throws(OpenSSLError) -> DESCBC in try DESCBC(loaded: Loaded(modulesDirectory: modulesDirectory)) }
    }

    /// Whether the process's default library context can fetch DES-CBC: false unless something
    /// else loaded the legacy provider there (`openssl.cnf`), which loading ``shared`` never does.
    public static var defaultContextHasDES: Bool {
        OpenSSLErrorQueue.run {
            guard let cipher = EVP_CIPHER_fetch(nil, "DES-CBC", nil) else { return false }
            EVP_CIPHER_free(cipher)
            return true
        }
    }

    private init(loaded: Loaded) {
        self.loaded = loaded
    }

    /// Encrypts `plaintext` under `key` with `iv`, padded to whole blocks (PKCS#5).
    /// - Throws: `OpenSSLError` (`.encrypt`) for a key or IV that is not 8 bytes, or an OpenSSL failure.
    public func encrypt(_ plaintext: [UInt8], key: [UInt8], iv: [UInt8]) throws -> [UInt8] {
        try run(.encrypt, plaintext, key: key, iv: iv)
    }

    /// Decrypts a whole number of blocks and strips the padding.
    /// - Throws: `OpenSSLError` (`.decrypt`) for a key or IV that is not 8 bytes, a length that is
    ///   not a positive multiple of 8, or bad padding (a wrong key, most of the time).
    public func decrypt(_ ciphertext: [UInt8], key: [UInt8], iv: [UInt8]) throws -> [UInt8] {
        guard !ciphertext.isEmpty, ciphertext.count % Self.blockLength == 0 else {
            throw OpenSSLError(operation: .decrypt, reason: "DES-CBC ciphertext is \(ciphertext.count) bytes, not a positive multiple of 8")
        }
        return try run(.decrypt, ciphertext, key: key, iv: iv)
    }

    private func run(_ operation: OpenSSLError.Operation, _ input: [UInt8], key: [UInt8], iv: [UInt8]) throws -> [UInt8] {
        guard key.count == Self.keyLength, iv.count == Self.blockLength else {
            throw OpenSSLError(operation: operation, reason: "DES-CBC needs an 8-byte key and IV, got \(key.count) and \(iv.count) bytes")
        }
        return try CBCCipher.run(loaded.cipher, name: "DES-CBC", blockLength: Self.blockLength, operation, input, key: key, iv: iv)
    }
}

extension DESCBC {
    /// The library context, its two providers and the fetched cipher, freed together.
    ///
    /// `@unchecked Sendable`: the pointers are set once in `init` and never changed; a fetched
    /// `EVP_CIPHER` and a library context with its providers loaded are documented as safe to
    /// share between threads, and each operation makes its own `EVP_CIPHER_CTX`.
    final class Loaded: @unchecked Sendable {
        let context: OpaquePointer
        let providers: [OpaquePointer]
        let cipher: OpaquePointer

        init(modulesDirectory: String?) throws(OpenSSLError) {
            COpenSSL_clear_errors()
            defer { COpenSSL_clear_errors() }
            guard let context = OSSL_LIB_CTX_new() else {
                throw OpenSSLErrorQueue.failure(.cipherLoad, "OSSL_LIB_CTX_new failed (out of memory)")
            }
            var providers: [OpaquePointer] = []
            func release() {
                providers.reversed().forEach { _ = OSSL_PROVIDER_unload($0) }
                OSSL_LIB_CTX_free(context)
            }
            if let modulesDirectory, OSSL_PROVIDER_set_default_search_path(context, modulesDirectory) != 1 {
                release()
                throw OpenSSLErrorQueue.failure(.cipherLoad, "cannot set the OpenSSL module directory for single DES")
            }
            for name in ["legacy", "default"] {
                guard let provider = OSSL_PROVIDER_load(context, name) else {
                    release()
                    throw OpenSSLErrorQueue.failure(.cipherLoad, Self.missing(name, modulesDirectory: modulesDirectory))
                }
                providers.append(provider)
            }
            guard let cipher = EVP_CIPHER_fetch(context, "DES-CBC", nil) else {
                release()
                throw OpenSSLErrorQueue.failure(.cipherLoad, "DES-CBC is not available from OpenSSL's legacy provider (a build without DES)")
            }
            self.context = context
            self.providers = providers
            self.cipher = cipher
        }

        deinit {
            EVP_CIPHER_free(cipher)
            providers.reversed().forEach { _ = OSSL_PROVIDER_unload($0) }
            OSSL_LIB_CTX_free(context)
        }

        /// Which module could not be loaded, where it was looked for, and what provides it.
        static func missing(_ name: String, modulesDirectory: String?) -> String {
            let directory = modulesDirectory.map { "in \($0)" } ?? "in OpenSSL's module directory (`openssl version -m`; OPENSSL_MODULES overrides it)"
            return "OpenSSL's \(name) provider module (\(name).so) could not be loaded \(directory): single DES needs it; "
                + "install the OpenSSL 3 package that ships ossl-modules/\(name).so (Debian and Ubuntu: libssl3; RHEL: openssl-libs; Alpine: libcrypto3)"
        }
    }
}
