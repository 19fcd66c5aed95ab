import PassgateCore
import ProviderCMCC
import Yams

extension ConfigurationReader {
    /// Reads `apps:`, checking each against the configured `providers`. `appIds` are the ids of
    /// every app entry with a readable id, loaded or not, so that a client's grant of an app whose
    /// secret failed is not reported a second time as a grant of an unknown app.
    func readApps(_ node: Node?, providers: [String: ProviderSettings]) -> (apps: [AppSettings], appIds: Set<String>) {
        var apps: [AppSettings] = []
        var appIds: Set<String> = []
        var firstIndex: [String: String] = [:]
        for (path, element) in list(node, path: "apps", expected: "a list of apps (- appId: \"300011111111\" …)") ?? [] {
            let keys = ["appId", "provider", "signMode", "secret", "appKey", "privateKey"]
            guard case .mapping = element else {
                report(path, "\(path) must be a mapping (appId, provider, signMode, secret, appKey, privateKey), got \(element.kindDescription)")
                continue
            }
            let section = mapping(element, path: path, keys: keys)
            let appId = readAppId(section)
            if let appId {
                if let first = firstIndex[appId] {
                    report(section.path(of: "appId"), "\(section.path(of: "appId")) \(appId) is configured twice (also \(first)): keep one entry per appId")
                } else {
                    firstIndex[appId] = section.path(of: "appId")
                }
            }
            let provider = readAppProvider(section, providers: providers)
            let signMode = choice("signMode", in: section, AppSettings.SignMode.allCases.map(\.rawValue)).flatMap(AppSettings.SignMode.init(rawValue:))
            if field("signMode", in: section) == nil {
                report(section.path(of: "signMode"), "\(section.path(of: "signMode")) is required: md5 (sign with the APPSecret) or rsa (sign with a private key)")
            }

            let secretField = field("secret", in: section)
            let secret = secretField.flatMap { textSecret($0, purpose: "makes every MD5 signature wrong (CMCC answers 103101)") }
            let appKeyField = field("appKey", in: section)
            let appKey = appKeyField.flatMap { textSecret($0, purpose: "makes every number-verification signature wrong (CMCC answers 302)") }
            let privateKeyField = field("privateKey", in: section)
            let privateKey = privateKeyField.flatMap { loadPrivateKey($0) }

            if signMode == .md5, secretField == nil {
                report(
                    section.path(of: "secret"),
                    "\(section.path(of: "secret")) is required for signMode md5: the app's APPSecret (or legacy appKey) as env:NAME or file:PATH"
                )
            }
            if signMode == .rsa, privateKeyField == nil {
                report(
                    section.path(of: "privateKey"),
                    "\(section.path(of: "privateKey")) is required for signMode rsa: the app's RSA private key (PEM or base64 DER) as file:PATH or env:NAME"
                        + (sandbox.enabled ? ", or sandbox:NAME for a generated sandbox key" : "")
                )
            }
            guard let appId else { continue }
            appIds.insert(appId)
            guard let signMode else { continue }
            do {
                apps.append(try AppSettings(
                    appId: appId, provider: provider ?? CMCC.providerID, signMode: signMode, secret: secret, appKey: appKey, privateKey: privateKey))
            } catch {
                // Only reached when a problem with the credential was already reported (a secret
                // that did not resolve, a key that did not load): say so once more, per app, only
                // if nothing was said, so an app that cannot sign is never loaded silently.
                if !hasProblems(under: path) { report(path, "\(path): \(error.problem)") }
            }
        }
        return (apps, appIds)
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
        guard !appId.isEmpty, appId.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
            report(path, "\(path) \(Quote.value(appId)) must be letters and digits only, as the carrier's console shows it (e.g. 300011111111)")
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
            provider = CMCC.providerID
            origin = "\(path) (default \(provider))"
        } else {
            return nil  // not a string: reported
        }
        guard Self.supportedProviders.contains(provider) else {
            report(path, "\(origin): unknown provider '\(provider)'; supported: \(Self.supportedProviders.joined(separator: ", "))")
            return nil
        }
        guard providers[provider] != nil else {
            report(path, "\(origin) is '\(provider)', which is not configured: add providers.\(provider) with its baseURLs")
            return nil
        }
        return provider
    }
}
