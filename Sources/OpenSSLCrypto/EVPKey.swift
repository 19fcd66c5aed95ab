import COpenSSL

/// Owns one loaded `EVP_PKEY`.
///
/// `@unchecked Sendable`: after loading, an `EVP_PKEY` is only read. OpenSSL 3 documents
/// concurrent use of one key from many threads as safe as long as nobody modifies it; every
/// operation creates its own `EVP_PKEY_CTX`/`EVP_MD_CTX`, so no per-operation state is shared.
final class EVPKey: @unchecked Sendable {
    let pointer: OpaquePointer

    init(taking pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        EVP_PKEY_free(pointer)
    }

    var bits: Int { Int(EVP_PKEY_get_bits(pointer)) }
    var maxOutputSize: Int { Int(EVP_PKEY_get_size(pointer)) }
    var isRSA: Bool { EVP_PKEY_is_a(pointer, "RSA") == 1 }
    var typeName: String {
        guard let name = EVP_PKEY_get0_type_name(pointer) else { return "unknown" }
        return String(cString: name)
    }
}

/// RSA key sizes we accept: carriers hand out 1024 and 2048; 4096 is the sane upper bound.
public let supportedRSABits = 1024...4096

extension EVPKey {
    /// Rejects non-RSA keys and sizes outside `supportedRSABits` with a message that names the problem.
    func checkedRSA(kind: String) throws -> EVPKey {
        guard isRSA else {
            throw OpenSSLError(operation: .keyLoad, reason: "the \(kind) is a \(typeName) key; an RSA key is required")
        }
        guard supportedRSABits.contains(bits) else {
            throw OpenSSLError(
                operation: .keyLoad,
                reason: "the \(kind) has \(bits) bits; supported RSA sizes are \(supportedRSABits.lowerBound) to \(supportedRSABits.upperBound)"
            )
        }
        return self
    }
}
