import Foundation
import OpenSSLCrypto

/// One RSA key pair made by the `openssl` command line, in every form the tests load.
struct RSAKeyMaterial: Sendable {
    let bits: Int
    /// `-----BEGIN RSA PRIVATE KEY-----` (PKCS#1, `openssl genrsa -traditional`).
    let pkcs1PEM: String
    /// `-----BEGIN PRIVATE KEY-----` (PKCS#8, `openssl pkey`).
    let pkcs8PEM: String
    let pkcs1DER: [UInt8]
    let pkcs8DER: [UInt8]
    /// `-----BEGIN PUBLIC KEY-----` (SubjectPublicKeyInfo, `openssl pkey -pubout`).
    let publicPEM: String
    let publicDER: [UInt8]
    /// `-----BEGIN RSA PUBLIC KEY-----` (PKCS#1, `openssl rsa -RSAPublicKey_out`).
    let publicPKCS1PEM: String
    let publicPKCS1DER: [UInt8]
}

/// The private-key texts a carrier console or an operator may hand us.
enum PrivateKeyFormat: String, CaseIterable, Sendable, CustomStringConvertible {
    case pkcs1PEM
    case pkcs8PEM
    case pkcs1Base64
    case pkcs8Base64
    /// Bare base64 of PKCS#8 DER wrapped at 64 columns with CRLF line ends (a console copy-paste).
    case pkcs8Base64WrappedCRLF

    var description: String { rawValue }

    func text(of material: RSAKeyMaterial) -> String {
        switch self {
        case .pkcs1PEM: material.pkcs1PEM
        case .pkcs8PEM: material.pkcs8PEM
        case .pkcs1Base64: Data(material.pkcs1DER).base64EncodedString()
        case .pkcs8Base64: Data(material.pkcs8DER).base64EncodedString()
        case .pkcs8Base64WrappedCRLF: wrapped(Data(material.pkcs8DER).base64EncodedString(), width: 64, newline: "\r\n")
        }
    }
}

/// The public-key texts `openssl` produces.
enum PublicKeyFormat: String, CaseIterable, Sendable, CustomStringConvertible {
    /// `openssl pkey -pubout`.
    case spkiPEM
    /// `openssl pkey -pubout -outform DER`, base64 (what the CMCC console shows).
    case spkiBase64
    /// `openssl rsa -RSAPublicKey_out`.
    case pkcs1PEM
    /// `openssl rsa -RSAPublicKey_out -outform DER`, base64.
    case pkcs1Base64

    var description: String { rawValue }

    func text(of material: RSAKeyMaterial) -> String {
        switch self {
        case .spkiPEM: material.publicPEM
        case .spkiBase64: Data(material.publicDER).base64EncodedString()
        case .pkcs1PEM: material.publicPKCS1PEM
        case .pkcs1Base64: Data(material.publicPKCS1DER).base64EncodedString()
        }
    }
}

/// `text` cut into lines of `width` characters, each ended by `newline`.
func wrapped(_ text: String, width: Int, newline: String) -> String {
    var lines: [Substring] = []
    var rest = Substring(text)
    while !rest.isEmpty {
        lines.append(rest.prefix(width))
        rest = rest.dropFirst(width)
    }
    return lines.map { $0 + newline }.joined()
}

/// Keys generated once per test process with the `openssl` CLI (1024 and 2048 bits), shared by
/// every suite; a generation failure is reported by every test that asks for the material.
enum RSAFixtures {
    static let sizes = [1024, 2048]

    /// One generation per size, started by the first test that asks and awaited by the others
    /// (a task, not a `static let` of the material: the CLI runs are awaited off the pool).
    private static let generated: [Int: Task<RSAKeyMaterial, any Error>] = Dictionary(
        uniqueKeysWithValues: sizes.map { bits in (bits, Task { try await generate(bits: bits) }) })

    /// The shared key pair of `bits` bits (1024 or 2048).
    static func material(bits: Int) async throws -> RSAKeyMaterial {
        guard let material = generated[bits] else {
            preconditionFailure("no fixture of \(bits) bits; sizes are \(sizes)")
        }
        return try await material.value
    }

    /// Our loader's view of the shared key (from PKCS#8 PEM).
    static func privateKey(bits: Int) async throws -> RSAPrivateKey {
        try RSAPrivateKey(text: await material(bits: bits).pkcs8PEM)
    }

    private static func generate(bits: Int) async throws -> RSAKeyMaterial {
        try await OpenSSLCLI.withScratchDirectory { cli in
            try await cli.run(["genrsa", "-traditional", "-out", "key1.pem", "\(bits)"])
            try await cli.run(["pkey", "-in", "key1.pem", "-out", "key8.pem"])
            try await cli.run(["rsa", "-in", "key1.pem", "-traditional", "-outform", "DER", "-out", "key1.der"])
            // Not `pkey -outform DER`: OpenSSL 3.0 writes the traditional (PKCS#1) structure there.
            try await cli.run(["pkcs8", "-topk8", "-nocrypt", "-in", "key1.pem", "-outform", "DER", "-out", "key8.der"])
            try await cli.run(["pkey", "-in", "key1.pem", "-pubout", "-out", "pub.pem"])
            try await cli.run(["pkey", "-in", "key1.pem", "-pubout", "-outform", "DER", "-out", "pub.der"])
            try await cli.run(["rsa", "-in", "key1.pem", "-RSAPublicKey_out", "-out", "pub1.pem"])
            try await cli.run(["rsa", "-in", "key1.pem", "-RSAPublicKey_out", "-outform", "DER", "-out", "pub1.der"])
            return RSAKeyMaterial(
                bits: bits,
                pkcs1PEM: try cli.readText("key1.pem"),
                pkcs8PEM: try cli.readText("key8.pem"),
                pkcs1DER: try cli.read("key1.der"),
                pkcs8DER: try cli.read("key8.der"),
                publicPEM: try cli.readText("pub.pem"),
                publicDER: try cli.read("pub.der"),
                publicPKCS1PEM: try cli.readText("pub1.pem"),
                publicPKCS1DER: try cli.read("pub1.der")
            )
        }
    }
}

/// The DER encoding of the rsaEncryption OID (1.2.840.113549.1.1.1): present in PKCS#8 and
/// SubjectPublicKeyInfo, absent from bare PKCS#1 structures.
let rsaEncryptionOID: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01]

extension Array where Element == UInt8 {
    func containsSubsequence(_ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, needle.count <= count else { return needle.isEmpty }
        return (0...(count - needle.count)).contains { self[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}
