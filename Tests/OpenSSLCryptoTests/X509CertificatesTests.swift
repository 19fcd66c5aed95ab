import COpenSSL
import Foundation
import OpenSSLCrypto
import PassgateTestSupport
import Testing

/// CA bundles read by `X509Certificates`, with certificates the `openssl` CLI generates at test
/// time and the dates and subjects it prints for them as the reference.
@Suite("X.509 certificates cross-checked with the openssl CLI")
struct X509CertificatesTests {
    @Test("one certificate: notAfter and subject are what openssl x509 prints, and about -days from now")
    func singleCertificate() async throws {
        try await OpenSSLCLI.withScratchDirectory { cli in
            let started = Int64(Date().timeIntervalSince1970)
            try await Self.makeCertificate(cli, "ca", days: 45, subject: "/CN=Passgate Test Root/O=Example Carrier")
            let certificates = try X509Certificates.read(pemFile: cli.url("ca.pem").path)
            try #require(certificates.count == 1)
            #expect(certificates[0].position == 1)
            #expect(certificates[0].notAfter == (try await Self.openSSLEndDate(cli, "ca.pem")))
            #expect(certificates[0].subject == (try await Self.openSSLSubject(cli, "ca.pem")))
            #expect(certificates[0].subject == "O=Example Carrier,CN=Passgate Test Root")
            // An independent bound: openssl set notAfter to its "now" plus 45 days.
            let expected = started + 45 * 86_400
            #expect((expected - 5)...(expected + 120) ~= certificates[0].notAfter)
        }
    }

    @Test("a bundle with several certificates, comments and a key between them: all read in order, the earliest picked")
    func bundlePicksEarliest() async throws {
        try await OpenSSLCLI.withScratchDirectory { cli in
            try await Self.makeCertificate(cli, "long", days: 400, subject: "/CN=Long Lived Root")
            try await Self.makeCertificate(cli, "soon", days: 20, subject: "/CN=Expiring Intermediate")
            try await Self.makeCertificate(cli, "mid", days: 90, subject: "/CN=Middle Root")
            // The layout of distribution bundles: comment lines before each block. A stray key
            // block is skipped, as libcurl skips it when it loads the same file.
            let bundle = "# Issuer: CN=Long Lived Root\n" + (try cli.readText("long.pem"))
                + "\n# a key that does not belong here\n" + (try cli.readText("soon.key"))
                + "# Issuer: CN=Expiring Intermediate\n" + (try cli.readText("soon.pem"))
                + (try cli.readText("mid.pem"))
            try cli.write("bundle.pem", bundle)

            let certificates = try X509Certificates.read(pemFile: cli.url("bundle.pem").path)
            #expect(certificates.map(\.position) == [1, 2, 3])
            let endDates = [
                try await Self.openSSLEndDate(cli, "long.pem"), try await Self.openSSLEndDate(cli, "soon.pem"),
                try await Self.openSSLEndDate(cli, "mid.pem"),
            ]
            #expect(certificates.map(\.notAfter) == endDates)
            let earliest = try X509Certificates.earliestExpiry(pemFile: cli.url("bundle.pem").path)
            #expect(earliest.position == 2)
            #expect(earliest.subject == "CN=Expiring Intermediate")
            #expect(earliest.notAfter == (try await Self.openSSLEndDate(cli, "soon.pem")))
            #expect(ERR_peek_error() == 0, "reading to the end of a bundle leaves OpenSSL's error queue empty")
        }
    }

    @Test("a notAfter past 2049 (GeneralizedTime, not UTCTime) converts like openssl prints it")
    func generalizedTime() async throws {
        try await OpenSSLCLI.withScratchDirectory { cli in
            try await Self.makeCertificate(cli, "far", days: 12_000, subject: "/CN=Far Future Root")
            let certificate = try X509Certificates.earliestExpiry(pemFile: cli.url("far.pem").path)
            #expect(certificate.notAfter == (try await Self.openSSLEndDate(cli, "far.pem")))
            #expect(certificate.notAfter > 2_524_608_000, "after 2050-01-01")
        }
    }

    @Test("files without a certificate get an error naming the file and what to give instead")
    func notACertificate() async throws {
        try await OpenSSLCLI.withScratchDirectory { cli in
            try await Self.makeCertificate(cli, "ca", days: 30, subject: "/CN=Some Root")
            try cli.write("text.pem", "this is a README, not a CA bundle\n")
            try cli.write("empty.pem", "")
            try await cli.run(["x509", "-in", "ca.pem", "-outform", "der", "-out", "ca.der"])

            for file in ["ca.key", "text.pem", "ca.der"] {
                let path = cli.url(file).path
                let error = expectOpenSSLError(.certificateLoad, mentioning: ["holds no PEM certificate", path]) {
                    try X509Certificates.read(pemFile: path)
                }
                #expect(error?.description.contains("BEGIN CERTIFICATE") == true, "\(String(describing: error))")
                #expect(ERR_peek_error() == 0, "\(file)")
            }
            expectOpenSSLError(.certificateLoad, mentioning: ["empty"]) { try X509Certificates.read(pemFile: cli.url("empty.pem").path) }
            expectOpenSSLError(.certificateLoad, mentioning: ["cannot read", "missing.pem"]) {
                try X509Certificates.read(pemFile: cli.url("missing.pem").path)
            }
        }
    }

    @Test("a certificate block that does not decode names its position and keeps OpenSSL's reasons")
    func corruptCertificate() async throws {
        try await OpenSSLCLI.withScratchDirectory { cli in
            try await Self.makeCertificate(cli, "good", days: 30, subject: "/CN=Good Root")
            try await Self.makeCertificate(cli, "bad", days: 30, subject: "/CN=Bad Root")
            var lines = try cli.readText("bad.pem").split(separator: "\n").map(String.init)
            lines[3] = String(repeating: "A", count: lines[3].count)  // valid base64, broken DER
            try cli.write("bundle.pem", try cli.readText("good.pem") + lines.joined(separator: "\n") + "\n")
            let corrupt = expectOpenSSLError(.certificateLoad, mentioning: ["certificate 2", "does not decode"]) {
                try X509Certificates.read(pemFile: cli.url("bundle.pem").path)
            }
            #expect(corrupt?.openSSLErrors.isEmpty == false, "OpenSSL's decoder errors belong in the report")
            #expect(ERR_peek_error() == 0)

            // A block cut off before its END line (a bundle truncated while copying).
            let good = try cli.readText("good.pem")
            try cli.write("truncated.pem", good + String(good.prefix(good.count / 2)))
            expectOpenSSLError(.certificateLoad, mentioning: ["certificate 2"]) {
                try X509Certificates.read(pemFile: cli.url("truncated.pem").path)
            }
            #expect(ERR_peek_error() == 0)
        }
    }

    // MARK: - openssl as the reference

    /// A self-signed certificate valid from now for `days` days (EC P-256: generated in milliseconds).
    static func makeCertificate(_ cli: OpenSSLCLI, _ name: String, days: Int, subject: String) async throws {
        try await cli.run([
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
            "-keyout", "\(name).key", "-out", "\(name).pem", "-days", String(days), "-subj", subject,
        ])
    }

    /// `openssl x509 -enddate -noout` (`notAfter=Mar  3 12:00:00 2027 GMT`) as seconds since 1970.
    static func openSSLEndDate(_ cli: OpenSSLCLI, _ file: String) async throws -> Int64 {
        let output = String(decoding: try await cli.run(["x509", "-in", file, "-enddate", "-noout"]), as: UTF8.self)
        let text = output.trimmingCharacters(in: .whitespacesAndNewlines)
        try #require(text.hasPrefix("notAfter="), "\(output)")
        let words = text.dropFirst("notAfter=".count).split(separator: " ").joined(separator: " ")
        let formatter = try #require(DateFormatter.pinned("MMM d HH:mm:ss yyyy 'GMT'", zone: "UTC"))
        let date = try #require(formatter.date(from: words), "cannot parse openssl's date '\(words)'")
        return Int64(date.timeIntervalSince1970)
    }

    /// `openssl x509 -subject -nameopt RFC2253` without its `subject=` prefix.
    static func openSSLSubject(_ cli: OpenSSLCLI, _ file: String) async throws -> String {
        let output = String(decoding: try await cli.run(["x509", "-in", file, "-noout", "-subject", "-nameopt", "RFC2253"]), as: UTF8.self)
        return String(output.trimmingCharacters(in: .whitespacesAndNewlines).dropFirst("subject=".count))
    }
}
