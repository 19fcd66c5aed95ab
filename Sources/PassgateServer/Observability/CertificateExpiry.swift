import PassgateCore
import CoreMetrics
import Foundation
import Logging
import OpenSSLCrypto
import PassgateConfig

/// When each provider's pinned CA bundle (`caFile`) stops being complete, as a metric.
///
/// A CA certificate expires silently: nothing fails until the day libcurl no longer trusts the
/// carrier, and then every call does. Exported once at start-up as an absolute time, so alerts
/// compute the time left themselves (`… - time()`) and need no re-export while the process runs;
/// a changed `caFile` is applied by a restart (`restartRequired` on reload), which exports again.
public enum CertificateExpiry {
    public static let metricName = "passgate_tls_ca_not_after_timestamp_seconds"
    /// Below this much time left, start-up logs a warning: the alert's warning threshold.
    public static let warningSeconds: Int64 = 30 * 86_400

    /// For every provider with a `caFile`: the earliest notAfter among its certificates, as
    /// `passgate_tls_ca_not_after_timestamp_seconds{provider}` (Unix seconds), and a warning that
    /// names the provider, the file and the certificate when less than 30 days are left (an error
    /// once it has expired). A bundle that does not read is logged as an error and exports nothing:
    /// the configuration loader already checked that the file holds a certificate, and libcurl
    /// reports its own TLS failures as `carrier_unavailable`.
    public static func export(
        _ configuration: PassgateConfiguration, metricsFactory: any MetricsFactory, logger: Logger, clock: any PassgateClock = SystemClock()
    ) {
        let now = clock.nowMilliseconds() / 1000
        for provider in configuration.providers.values.sorted(by: { $0.id < $1.id }) {
            guard let caFile = provider.caFile else { continue }
            let earliest: X509CertificateSummary
            do {
                earliest = try X509Certificates.earliestExpiry(pemFile: caFile)
            } catch {
                logger.error("cannot read the CA bundle's expiry", metadata: [
                    "provider": .string(provider.id), "caFile": .string(caFile), "error": .string("\(error)"),
                ])
                continue
            }
            Gauge(label: metricName, dimensions: [("provider", provider.id)], factory: metricsFactory).record(Double(earliest.notAfter))
            let left = earliest.notAfter - now
            guard left < warningSeconds else { continue }
            let metadata: Logger.Metadata = [
                "provider": .string(provider.id), "caFile": .string(caFile), "subject": .string(earliest.subject),
                "certificate": .stringConvertible(earliest.position), "notAfter": .string(iso8601(earliest.notAfter)),
                "daysLeft": .stringConvertible(left / 86_400),
            ]
            if left <= 0 {
                logger.error("a CA certificate in the provider's caFile has expired: calls to the carrier will fail TLS verification", metadata: metadata)
            } else {
                logger.warning("a CA certificate in the provider's caFile expires in less than 30 days: get the carrier's new CA bundle", metadata: metadata)
            }
        }
    }

    static func iso8601(_ seconds: Int64) -> String {
        Timestamp.string(milliseconds: seconds * 1000, style: .iso8601)
    }
}
