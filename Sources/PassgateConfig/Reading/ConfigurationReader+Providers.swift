import PassgateCore
import Foundation
import Yams

extension ConfigurationReader {
    /// An app entry without `provider` is a CMCC app (the first provider; older configurations
    /// name no provider). A literal: the reader names no provider type.
    static let defaultProvider = "cmcc"

    /// Reads `providers:`. With the sandbox enabled, `cmcc` may be absent or lack `baseURLs` (the server
    /// points it at the embedded sandbox); it is then present with no base URLs.
    func readProviders(_ node: Node?) -> [String: ProviderSettings] {
        var providers: [String: ProviderSettings] = [:]
        let entries = entries(of: node, path: "providers", expected: "a mapping of provider ids (cmcc: {baseURLs: […]})") ?? []
        for (id, value) in entries {
            guard registry[id] != nil else {
                report("providers.\(id)", "unknown provider '\(id)'; supported: \(registry.ids.joined(separator: ", "))")
                continue
            }
            providers[id] = readProvider(id, value)
        }
        // Absent from the file but needed: the sandbox stands in for it, or overrides configure it.
        for id in registry.ids where providers[id] == nil {
            let prefix = Self.overridePrefix("providers_\(id)")
            let overridden = environment.contains { $0.key.hasPrefix(prefix) && !$0.value.isEmpty }
            guard overridden || sandbox.enabled else { continue }
            providers[id] = readProvider(id, nil)
        }
        return providers
    }

    private func readProvider(_ id: String, _ node: Node?) -> ProviderSettings {
        let path = "providers.\(id)"
        let keys = ["baseURLs", "verifyBaseURLs", "connectTimeoutMs", "timeoutMs", "caFile", "proxy", "maxConcurrentCalls", "callQueueTimeoutMs", "circuitFailureThreshold", "circuitOpenMs", "eventLoop"]
        let section = mapping(node, path: path, keys: keys, overridePrefix: Self.overridePrefix("providers_\(id)"))
        var settings = ProviderSettings(id: id, baseURLs: [])

        let urlsPath = section.path(of: "baseURLs")
        let example = "e.g. [\"https://www.cmpassport.com\", \"https://onekey2.cmpassport.com\"]"
        if let urls = baseURLs("baseURLs", in: section, example: example) {
            settings.baseURLs = urls.valid
            if urls.isEmpty, !sandbox.enabled {
                report(urlsPath, "\(urlsPath) is required outside the sandbox: the carrier's hosts, tried in order, \(example)")
            }
        }
        // Optional: only a provider that verifies numbers on another host needs it.
        if let urls = baseURLs("verifyBaseURLs", in: section, example: "e.g. [\"https://verify.example.com\"]") {
            settings.verifyBaseURLs = urls.valid
        }

        if let connect = int("connectTimeoutMs", in: section, 50...60_000) { settings.connectTimeoutMs = connect }
        if let cap = int("maxConcurrentCalls", in: section, 1...100_000, note: " (calls to this carrier in flight at once)") { settings.maxConcurrentCalls = cap }
        if let wait = int("callQueueTimeoutMs", in: section, 0...60_000, note: " (how long a call waits for a free slot when maxConcurrentCalls are in flight)") {
            settings.callQueueTimeoutMs = wait
        }
        if let threshold = int("circuitFailureThreshold", in: section, 1...1000, note: " (consecutive transport failures that open a base URL's circuit)") {
            settings.circuitFailureThreshold = threshold
        }
        if let open = int("circuitOpenMs", in: section, 100...600_000, note: " (how long an open circuit skips its base URL)") { settings.circuitOpenMs = open }
        if let loop = choice("eventLoop", in: section, ProviderSettings.EventLoop.allCases.map(\.rawValue)) {
            settings.eventLoop = ProviderSettings.EventLoop(rawValue: loop) ?? .epoll
        }
        if let total = int("timeoutMs", in: section, 100...120_000, note: " (the whole request, connection included)") { settings.timeoutMs = total }
        if settings.timeoutMs <= settings.connectTimeoutMs {
            report(
                section.path(of: "timeoutMs"),
                "\(section.path(of: "timeoutMs")) (\(settings.timeoutMs)) must be greater than connectTimeoutMs (\(settings.connectTimeoutMs)): "
                    + "it is the whole request's budget, connecting included"
            )
        }
        if let (caFile, field) = string("caFile", in: section), !caFile.isEmpty {
            let absolute = absolutePath(caFile)
            if let bytes = files.contents(absolute) {
                if String(decoding: bytes, as: UTF8.self).contains("-----BEGIN CERTIFICATE-----") {
                    settings.caFile = absolute
                } else {
                    report(field.path, "\(field.origin) '\(absolute)' holds no PEM certificate (-----BEGIN CERTIFICATE-----): give a PEM bundle of CA certificates")
                }
            } else {
                report(field.path, "\(field.origin) '\(absolute)' cannot be read (missing file or no permission); give a PEM bundle of CA certificates, or remove the key to use the system's")
            }
        }
        if let (proxy, field) = string("proxy", in: section), !proxy.isEmpty {
            if let reason = URLRules.proxyProblem(proxy) {
                report(field.path, "\(field.origin) \(reason)")
            } else {
                settings.proxy = proxy
            }
        }
        return settings
    }

    /// The list of base URLs at `key`, each checked (`URLRules`); nil when the key is absent or
    /// not a list (reported). `isEmpty` is whether the list itself was empty.
    private func baseURLs(_ key: String, in section: ConfigMapping, example: String) -> (valid: [String], isEmpty: Bool)? {
        guard let urls = list(section[key], path: section.path(of: key), expected: "a list of URLs, \(example)") else { return nil }
        var valid: [String] = []
        for (elementPath, element) in urls {
            guard case .scalar(let scalar) = element else {
                report(elementPath, "\(elementPath) must be a URL, got \(element.kindDescription)")
                continue
            }
            if let reason = URLRules.baseURLProblem(scalar.string) {
                report(elementPath, "\(elementPath) \(Quote.value(scalar.string)) \(reason)")
            } else {
                valid.append(scalar.string)
            }
        }
        return (valid, urls.isEmpty)
    }
}
