import Foundation
import Yams

/// `tracing:` - the OTLP exporter and the sampler.
extension ConfigurationReader {
    static let tracingKeys = [
        "enabled", "endpoint", "samplingRatio", "serviceName", "exportIntervalMs", "maxExportBatchSize", "maxQueueSize", "exportTimeoutMs",
    ]

    func readTracing(_ node: Node?) -> TracingSettings {
        let section = mapping(node, path: "tracing", keys: Self.tracingKeys, overridePrefix: Self.overridePrefix("tracing"))
        var settings = TracingSettings()
        if let enabled = bool("enabled", in: section) { settings.enabled = enabled }
        if let endpoint = name("endpoint", in: section, what: "the collector's OTLP/HTTP URL, e.g. http://127.0.0.1:4318"),
           let origin = field("endpoint", in: section)?.origin {
            if let problem = URLRules.collectorProblem(endpoint) {
                report("tracing.endpoint", "\(origin) \(problem)")
            } else {
                settings.endpoint = endpoint.hasSuffix("/") ? String(endpoint.dropLast()) : endpoint
            }
        }
        if let ratio = fraction("samplingRatio", in: section) { settings.samplingRatio = ratio }
        if let service = name("serviceName", in: section, what: "the service.name spans carry, e.g. passgate") { settings.serviceName = service }
        let intervalNote = " (how often queued spans are sent)"
        if let interval = int("exportIntervalMs", in: section, 10...600_000, note: intervalNote) { settings.exportIntervalMs = interval }
        if let batch = int("maxExportBatchSize", in: section, 1...100_000, note: " (spans in one export request)") {
            settings.maxExportBatchSize = batch
        }
        let queueNote = " (spans waiting for export; past it new spans are dropped)"
        if let queue = int("maxQueueSize", in: section, 1...1_000_000, note: queueNote) { settings.maxQueueSize = queue }
        if let timeout = int("exportTimeoutMs", in: section, 100...600_000, note: " (how long one export request may take)") {
            settings.exportTimeoutMs = timeout
        }
        if settings.maxExportBatchSize > settings.maxQueueSize, !hasProblems(under: "tracing") {
            report("tracing.maxExportBatchSize", "tracing.maxExportBatchSize \(settings.maxExportBatchSize) is larger than tracing.maxQueueSize "
                + "\(settings.maxQueueSize): a batch is taken from the queue, so make it at most the queue's size")
        }
        return settings
    }

    /// A decimal number from 0 to 1; `nil` when absent or reported.
    private func fraction(_ key: String, in mapping: ConfigMapping) -> Double? {
        guard let field = field(key, in: mapping) else { return nil }
        let expectation = "\(field.origin) must be a number from 0 to 1 (0.1 records one trace in ten)"
        guard case .scalar(let text) = field.content else {
            report(field.path, "\(expectation), got \(field.content.kindDescription)")
            return nil
        }
        guard let value = Double(text.trimmingCharacters(in: .whitespaces)), value.isFinite, (0...1).contains(value) else {
            report(field.path, "\(expectation), got \(Quote.value(text))")
            return nil
        }
        return value
    }
}

extension URLRules {
    /// An OTLP/HTTP collector base URL: absolute http(s) with a host, no credentials, query or
    /// fragment. Plain http is accepted anywhere: spans carry no token, number or secret, and
    /// collectors usually listen in plain http beside the service.
    static func collectorProblem(_ text: String) -> String? {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
              let host = components.host, !host.isEmpty
        else {
            return "must be an absolute URL such as http://127.0.0.1:4318"
        }
        guard scheme == "https" || scheme == "http" else { return "must be an http(s) URL, not \(scheme):" }
        guard components.user == nil, components.password == nil else { return "must not contain credentials" }
        guard components.query == nil, components.fragment == nil else {
            return "must not have a query or fragment: give the collector's base URL; spans go to its /v1/traces"
        }
        return nil
    }
}
