import OpenSSLCrypto
import PassgateCore
import Yams

extension ConfigurationReader {
    /// Reads `apps:`: each entry's `appId` and `provider` here, the rest by its provider
    /// (`CarrierProvider.readApp`). `appIds` are the ids of every entry with a readable id,
    /// loaded or not, so that a client's grant of an app whose secret failed is not reported a
    /// second time as a grant of an unknown app.
    func readApps(_ node: Node?, providers: [String: ProviderSettings]) -> (apps: [AppSettings], appIds: Set<String>) {
        var apps: [AppSettings] = []
        var appIds: Set<String> = []
        var firstIndex: [String: String] = [:]
        let providerKeys = Set(registry.ids.compactMap { registry[$0] }.flatMap(\.appKeys))
        for (path, element) in list(node, path: "apps", expected: "a list of apps (- appId: \"300011111111\" …)") ?? [] {
            let keys = ["appId", "provider"] + providerKeys.sorted()
            guard case .mapping = element else {
                report(path, "\(path) must be a mapping (\(keys.joined(separator: ", "))), got \(element.kindDescription)")
                continue
            }
            let section = mapping(element, path: path, keys: ["appId", "provider"] + Self.appKeyOrder(providerKeys))
            let appId = readAppId(section)
            if let appId {
                if let first = firstIndex[appId] {
                    report(section.path(of: "appId"), "\(section.path(of: "appId")) \(appId) is configured twice (also \(first)): keep one entry per appId")
                } else {
                    firstIndex[appId] = section.path(of: "appId")
                }
                appIds.insert(appId)
            }
            let providerId = readAppProvider(section, providers: providers)
            // An entry whose appId or provider is wrong is still read (by the default provider when
            // its own is unknown), so that its secrets' problems are listed in the same pass.
            guard let provider = registry[providerId ?? Self.defaultProvider] else { continue }
            if let providerId {
                for key in providerKeys.subtracting(provider.appKeys).sorted() where field(key, in: section) != nil {
                    report(section.path(of: key), "\(section.path(of: key)) is not a setting of a \(providerId) app; it reads \(provider.appKeys.joined(separator: ", "))")
                }
            }
            let fields = AppEntryFields(reader: self, section: section, appId: appId ?? "")
            let settings = provider.readApp(fields)
            guard appId != nil, let providerId else { continue }
            if let settings {
                apps.append(AppSettings(provider: providerId, settings: settings))
            } else if !fields.hasProblems {
                report(path, "\(path): the \(providerId) provider refused this app without saying why")
            }
        }
        return (apps, appIds)
    }

    /// Known app keys in a stable order for messages: the documented CMCC order first.
    private static func appKeyOrder(_ keys: Set<String>) -> [String] {
        let documented = ["signMode", "secret", "appKey", "privateKey"]
        return documented.filter(keys.contains) + keys.subtracting(documented).sorted()
    }

    private func readAppId(_ section: ConfigMapping) -> String? {
        let path = section.path(of: "appId")
        guard let (appId, _) = string("appId", in: section, expected: "the carrier's appid, e.g. \"300011111111\"") else {
            if section["appId"] == nil || section["appId"]?.isNull == true {
                report(path, "\(path) is required: the appid from the carrier's console, e.g. \"300011111111\"")
            }
            return nil
        }
        if appId.contains(where: \.isWhitespace) {
            report(path, "\(path) \(Quote.value(appId)) contains whitespace: remove it (CMCC answers 103119, appid does not exist, for stray spaces)")
            return nil
        }
        guard (1...64).contains(appId.utf8.count), appId.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }) else {
            report(path, "\(path) \(Quote.value(appId)) must be 1-64 letters, digits, '-', '_' or '.' (e.g. 300011111111, or jg-shop)")
            return nil
        }
        return appId
    }

    private func readAppProvider(_ section: ConfigMapping, providers: [String: ProviderSettings]) -> String? {
        let path = section.path(of: "provider")
        let provider: String
        let origin: String
        if let (text, field) = string("provider", in: section) {
            provider = text
            origin = field.origin
        } else if field("provider", in: section) == nil {
            provider = Self.defaultProvider
            origin = "\(path) (default \(provider))"
        } else {
            return nil  // not a string: reported
        }
        guard registry[provider] != nil else {
            report(path, "\(origin): unknown provider '\(provider)'; supported: \(registry.ids.joined(separator: ", "))")
            return nil
        }
        if providers[provider] == nil {
            // Reported, and the app still read, so that its own problems are listed too.
            report(path, "\(origin) is '\(provider)', which is not configured: add providers.\(provider) with its baseURLs")
        }
        return provider
    }
}

/// One app entry as its provider reads it: secrets resolved, problems reported with key paths.
final class AppEntryFields: AppFieldReader {
    let reader: ConfigurationReader
    let section: ConfigMapping
    let appId: String
    private let problemsBefore: Int

    init(reader: ConfigurationReader, section: ConfigMapping, appId: String) {
        self.reader = reader
        self.section = section
        self.appId = appId
        problemsBefore = reader.problems.count
    }

    var sandboxEnabled: Bool { reader.sandbox.enabled }
    var hasProblems: Bool { reader.problems.count > problemsBefore }
    func isPresent(_ key: String) -> Bool { reader.field(key, in: section) != nil }
    func path(of key: String) -> String { section.path(of: key) }
    func choice(_ key: String, _ options: [String]) -> String? { reader.choice(key, in: section, options) }
    func text(_ key: String) -> String? { reader.string(key, in: section)?.value }
    func secret(_ key: String, purpose: String) -> String? { reader.field(key, in: section).flatMap { reader.textSecret($0, purpose: purpose) } }
    func privateKey(_ key: String) -> RSAPrivateKey? { reader.field(key, in: section).flatMap { reader.loadPrivateKey($0) } }
    func report(_ key: String, _ message: String) { reader.report(section.path(of: key), message) }
}
