import COpenSSL
import Foundation

/// What monitoring needs to know about one certificate of a PEM bundle.
public struct X509CertificateSummary: Sendable, Equatable {
    /// 1-based position among the bundle's certificates, for messages ("certificate 3 of 12").
    public let position: Int
    /// The subject in RFC 2253 form (`CN=Example Root CA,O=Example`), as
    /// `openssl x509 -subject -nameopt RFC2253` prints it.
    public let subject: String
    /// The end of the validity period (notAfter), in seconds since 1970-01-01T00:00:00Z.
    public let notAfter: Int64
}

/// Reads the certificates of a PEM bundle such as a provider's `caFile`.
///
/// Certificates are read with `PEM_read_bio_X509` in a loop; PEM blocks of other kinds (keys,
/// CRLs) and text between blocks (the `# Issuer:` comments of distribution bundles) are skipped,
/// as libcurl skips them when it loads the same file as its trust anchors.
public enum X509Certificates {
    /// Every certificate in `pem`, in order. `source` names the input in messages (a file path).
    /// Throws when there is no certificate at all, or when a certificate block does not decode.
    public static func read(pem: [UInt8], source: String = "the PEM input") throws -> [X509CertificateSummary] {
        guard !pem.isEmpty else { throw failure("\(source) is empty; give a PEM bundle of CA certificates") }
        guard pem.count <= Int(Int32.max) else { throw failure("\(source) is larger than 2 GiB; that is no CA bundle") }
        return try OpenSSLErrorQueue.run {
            try pem.withUnsafeBytes { bytes in
                guard let bio = BIO_new_mem_buf(bytes.baseAddress, Int32(bytes.count)) else {
                    throw OpenSSLErrorQueue.failure(.certificateLoad, "out of memory reading \(source)")
                }
                defer { BIO_free(bio) }
                return try readAll(from: bio, source: source)
            }
        }
    }

    /// Every certificate in the PEM file at `path`, in order.
    public static func read(pemFile path: String) throws -> [X509CertificateSummary] {
        let contents: Data
        do {
            contents = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw failure("cannot read '\(path)': \(error.localizedDescription)")
        }
        return try read(pem: [UInt8](contents), source: "'\(path)'")
    }

    /// The certificate of the PEM file at `path` that expires first (the first of them on a tie):
    /// the day the bundle stops being complete.
    public static func earliestExpiry(pemFile path: String) throws -> X509CertificateSummary {
        let certificates = try read(pemFile: path)
        // `read` never returns an empty list, so `min` always finds one.
        return certificates.min { $0.notAfter < $1.notAfter } ?? certificates[0]
    }

    private static func readAll(from bio: OpaquePointer, source: String) throws -> [X509CertificateSummary] {
        var certificates: [X509CertificateSummary] = []
        while true {
            guard let certificate = PEM_read_bio_X509(bio, nil, nil, nil) else {
                // The end of the input looks like a failure too: tell it apart by OpenSSL's reason.
                if COpenSSL_pem_no_more_certificates() == 1 { break }
                throw OpenSSLErrorQueue.failure(
                    .certificateLoad,
                    "certificate \(certificates.count + 1) in \(source) does not decode (bad base64, a truncated block, or not an X.509 certificate)"
                )
            }
            defer { X509_free(certificate) }
            certificates.append(try summary(of: certificate, position: certificates.count + 1, source: source))
        }
        guard !certificates.isEmpty else {
            throw failure(
                "\(source) holds no PEM certificate (-----BEGIN CERTIFICATE-----); give a PEM bundle of CA certificates "
                    + "(a DER file converts with: openssl x509 -inform der -in FILE -out FILE.pem)"
            )
        }
        return certificates
    }

    private static func summary(of certificate: OpaquePointer, position: Int, source: String) throws -> X509CertificateSummary {
        var notAfter: Int64 = 0
        guard let time = X509_get0_notAfter(certificate), COpenSSL_ASN1_TIME_to_posix(time, &notAfter) == 1 else {
            throw OpenSSLErrorQueue.failure(.certificateLoad, "certificate \(position) in \(source) has no readable notAfter date")
        }
        return X509CertificateSummary(position: position, subject: try subject(of: certificate), notAfter: notAfter)
    }

    private static func subject(of certificate: OpaquePointer) throws -> String {
        guard let bio = BIO_new(BIO_s_mem()) else { throw OpenSSLErrorQueue.failure(.certificateLoad, "out of memory") }
        defer { BIO_free(bio) }
        guard COpenSSL_X509_print_subject(bio, certificate) >= 0 else {
            throw OpenSSLErrorQueue.failure(.certificateLoad, "cannot print a certificate's subject")
        }
        var data: UnsafeMutablePointer<CChar>?
        let length = COpenSSL_BIO_get_mem_data(bio, &data)
        guard length > 0, let data else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self)
    }

    private static func failure(_ reason: String) -> OpenSSLError {
        OpenSSLError(operation: .certificateLoad, reason: reason)
    }
}
