import Foundation
import OpenSSLCrypto
import Yams

extension ConfigurationReader {
    /// Reads `clients:`, checking each grant against the configured `apps`.
    func readClients(_ node: Node?, appIds: Set<String>) -> [ClientSettings] {
        var clients: [ClientSettings] = []
        var firstWithId: [String: String] = [:]
        var firstWithKey: [[UInt8]: String] = [:]
        for (path, element) in list(node, path: "clients", expected: "a list of clients (- id: shop-backend …)") ?? [] {
            guard case .mapping = element else {
                report(path, "\(path) must be a mapping (id, apiKeySHA256, apps, ratePerSecond), got \(element.kindDescription)")
                continue
            }
            let section = mapping(element, path: path, keys: ["id", "apiKeySHA256", "apps", "ratePerSecond"])
            let id = readClientId(section)
            if let id {
                if let first = firstWithId[id] {
                    report(section.path(of: "id"), "\(section.path(of: "id")) '\(id)' is used twice (also \(first)): client ids must be unique")
                } else {
                    firstWithId[id] = section.path(of: "id")
                }
            }
            let hash = readKeyHash(section)
            if let hash {
                if let first = firstWithKey[hash] {
                    report(
                        section.path(of: "apiKeySHA256"),
                        "\(section.path(of: "apiKeySHA256")) is the same key hash as \(first): give every client its own API key"
                    )
                } else {
                    firstWithKey[hash] = section.path(of: "apiKeySHA256")
                }
            }
            let grants = readGrants(section, client: id ?? path, appIds: appIds)
            let rate = int("ratePerSecond", in: section, 1...1_000_000, note: " (requests per second; leave it out for no limit)")
            guard let id, let hash, let grants else { continue }
            clients.append(ClientSettings(id: id, apiKeySHA256: hash, apps: grants, ratePerSecond: rate))
        }
        return clients
    }

    private func readClientId(_ section: ConfigMapping) -> String? {
        let path = section.path(of: "id")
        guard let (id, _) = string("id", in: section) else {
            if section["id"] == nil || section["id"]?.isNull == true {
                report(path, "\(path) is required: a name for this caller, used in logs and metrics (e.g. shop-backend)")
            }
            return nil
        }
        guard !id.isEmpty, id.count <= 64, id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }) else {
            report(path, "\(path) \(Quote.value(id)) must be 1-64 letters, digits, '-', '_' or '.' (it appears in logs and metric labels)")
            return nil
        }
        return id
    }

    /// The 32 bytes of `apiKeySHA256`. Its value is never quoted: it may be a raw key pasted by mistake.
    /// `apiKeySHA256` of `section` (clients and the admin listener): 64 hex characters, never the key.
    func readKeyHash(_ section: ConfigMapping) -> [UInt8]? {
        let path = section.path(of: "apiKeySHA256")
        let howTo = "printf %s KEY | sha256sum"
        guard let (text, _) = string("apiKeySHA256", in: section) else {
            if section["apiKeySHA256"] == nil || section["apiKeySHA256"]?.isNull == true {
                report(path, "\(path) is required: the SHA-256 of the client's API key as 64 hex characters (\(howTo)); never the key itself")
            }
            return nil
        }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasSuffix("-"), let hex = trimmed.split(separator: " ").first, hex.count == 64, Hex.decode(hex) != nil {
            report(path, "\(path) ends with the ' -' that sha256sum prints: keep only the 64 hex characters")
            return nil
        }
        if !trimmed.isEmpty, trimmed.allSatisfy({ $0.isASCII && $0.isHexDigit }) {
            guard trimmed.count == 64, let bytes = Hex.decode(trimmed) else {
                report(path, "\(path) has \(trimmed.count) hex characters; a SHA-256 has 64 (\(howTo))")
                return nil
            }
            if Hex.lowercase(bytes) == Self.sha256OfNothing {
                report(path, "\(path) is the SHA-256 of an empty string: was KEY empty when you ran \(howTo)?")
                return nil
            }
            return bytes
        }
        report(path, "\(path) must be the SHA-256 of the key, e.g. \(howTo) (64 hex characters); this value looks like a raw key rather than a hash")
        return nil
    }

    private func readGrants(_ section: ConfigMapping, client: String, appIds: Set<String>) -> Set<String>? {
        let path = section.path(of: "apps")
        guard let elements = list(section["apps"], path: path, expected: "a list of appIds, e.g. [\"300011111111\"]") else { return nil }
        guard !elements.isEmpty else {
            report(path, "\(path) must list at least one appId this client may use, e.g. [\"300011111111\"]")
            return nil
        }
        var grants: Set<String> = []
        for (elementPath, element) in elements {
            guard case .scalar(let scalar) = element, !element.isNull else {
                report(elementPath, "\(elementPath) must be an appId, got \(element.kindDescription)")
                continue
            }
            guard appIds.contains(scalar.string) else {
                report(elementPath, "client \(client) is granted unknown app \(scalar.string) (\(elementPath)): configure it under apps, or remove the grant")
                continue
            }
            grants.insert(scalar.string)
        }
        return grants
    }

    static let sha256OfNothing = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
}
