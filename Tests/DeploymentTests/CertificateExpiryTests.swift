import PassgateTestSupport
import PassgateCore
import Foundation
import OpenSSLCrypto
import PassgateConfig
import PassgateServer
import Prometheus
import Testing

/// `passgate_tls_ca_not_after_timestamp_seconds`, which PassgateCACertificateExpiry alerts on:
/// exported from a provider's caFile as the real runtime's Prometheus registry renders it, and the
/// start-up log line that names the provider, the file and the certificate.
@Suite("CA bundle expiry as a metric")
struct CertificateExpiryTests {
    /// Exports for a configuration whose cmcc provider pins `caFile`, at `now` (Unix seconds).
    static func export(caFile: String?, now: Int64 = Int64(Date().timeIntervalSince1970)) -> (exposition: String, logs: [String]) {
        var provider = ProviderSettings(id: "cmcc", baseURLs: ["https://carrier.example"])
        provider.caFile = caFile
        let configuration = PassgateConfiguration(providers: ["cmcc": provider])
        let logs = MemoryLogSink()
        let registry = PrometheusCollectorRegistry()
        CertificateExpiry.export(
            configuration, metricsFactory: PrometheusMetricsFactory(registry: registry),
            logger: PassgateRuntime(configuration: configuration, logSink: logs).makeLogger(), clock: ManualClock(milliseconds: now * 1000)
        )
        return (registry.emitToString(), logs.contents)
    }

    /// The gauge's value for `provider`, read back from the exposition text.
    static func gauge(_ exposition: String, provider: String = "cmcc") -> Double? {
        let prefix = "\(CertificateExpiry.metricName){provider=\"\(provider)\"} "
        return exposition.split(separator: "\n").first { $0.hasPrefix(prefix) }.flatMap { Double($0.dropFirst(prefix.count)) }
    }

    @Test("a bundle with 20 days left: the gauge holds its earliest notAfter, typed gauge, and start-up warns naming provider, file and subject")
    func expiringSoon() async throws {
        let soon = try await DashboardMetricsTests.certificateFile(days: 20, subject: "/CN=Expiring Carrier CA")
        let later = try await DashboardMetricsTests.certificateFile(days: 400, subject: "/CN=Long Lived Carrier CA")
        defer { [soon, later].forEach { try? FileManager.default.removeItem(atPath: $0) } }
        let bundle = soon + ".bundle.pem"
        defer { try? FileManager.default.removeItem(atPath: bundle) }
        try (String(contentsOfFile: later, encoding: .utf8) + String(contentsOfFile: soon, encoding: .utf8)).write(toFile: bundle, atomically: true, encoding: .utf8)

        let (exposition, logs) = Self.export(caFile: bundle)
        let expected = try X509Certificates.read(pemFile: soon)[0].notAfter
        #expect(Self.gauge(exposition) == Double(expected), "\(exposition)")
        #expect(metricFamilies(inExposition: exposition)[CertificateExpiry.metricName] == "gauge")
        let warning = try #require(logs.first { $0.contains("expires in less than 30 days") }, "\(logs)")
        for fragment in [#""level":"warning""#, #""provider":"cmcc""#, bundle, "CN=Expiring Carrier CA", #""certificate":"2""#] {
            #expect(warning.contains(fragment), "\(fragment) missing from \(warning)")
        }
        // 20 days from openssl's "now", read within the same second or the next.
        #expect(warning.contains(#""daysLeft":"20""#) || warning.contains(#""daysLeft":"19""#), "\(warning)")
    }

    @Test("a bundle with a year left exports its notAfter and logs nothing; no caFile exports nothing")
    func healthyAndAbsent() async throws {
        let file = try await DashboardMetricsTests.certificateFile(days: 365)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let (exposition, logs) = Self.export(caFile: file)
        #expect(Self.gauge(exposition) == Double(try X509Certificates.read(pemFile: file)[0].notAfter))
        #expect(logs.isEmpty, "\(logs)")

        let (none, quiet) = Self.export(caFile: nil)
        #expect(!none.contains(CertificateExpiry.metricName), "no caFile, no series (the alert then has nothing to judge): \(none)")
        #expect(quiet.isEmpty)
    }

    @Test("an expired bundle is logged as an error; an unreadable one is logged and exports nothing")
    func expiredAndUnreadable() async throws {
        let file = try await DashboardMetricsTests.certificateFile(days: 10)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let notAfter = try X509Certificates.read(pemFile: file)[0].notAfter
        let (exposition, logs) = Self.export(caFile: file, now: notAfter + 86_400)
        #expect(Self.gauge(exposition) == Double(notAfter))
        #expect(logs.contains { $0.contains(#""level":"error""#) && $0.contains("has expired") && $0.contains(file) }, "\(logs)")

        let text = file + ".txt"
        try "not a certificate\n".write(toFile: text, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: text) }
        let (nothing, errors) = Self.export(caFile: text)
        #expect(Self.gauge(nothing) == nil)
        #expect(errors.contains { $0.contains("cannot read the CA bundle's expiry") && $0.contains(text) && $0.contains("holds no PEM certificate") }, "\(errors)")
    }
}
