import Hummingbird
import OpenSSLCrypto
import PassgateConfig
import PassgateConsole
import PassgateCore

extension ConsoleController {
    /// `GET /console/configuration`: the configuration in effect (the reloader's: what started,
    /// with every applied reload), secrets by source and fingerprint, CA bundle expiry.
    func configuration(_ request: Request) async throws -> Response {
        ConsoleResponse.html(try await configurationPage(reload: nil).render(layout: layout, csrf: try csrf(request)))
    }

    /// `POST /console/configuration/reload` (behind the CSRF gate): the same reload as `POST
    /// /admin/reload`, then the page with what it applied and what needs a restart.
    func reload(_ request: Request, context: PassgateRequestContext) async throws -> Response {
        let outcome: ConfigurationPage.ReloadOutcome
        let status: HTTPResponse.Status
        do {
            let report = try await reloader.reload(trigger: "console")
            outcome = .reloaded(generation: report.generation, applied: report.applied, restartRequired: report.restartRequired)
            status = .ok
        } catch {
            outcome = .rejected(message: error.message)
            status = error.status
        }
        return ConsoleResponse.html(try await configurationPage(reload: outcome).render(layout: layout, csrf: try csrf(request)), status: status)
    }

    private func configurationPage(reload: ConfigurationPage.ReloadOutcome?) async throws -> ConfigurationPage {
        let (configuration, generation) = await reloader.inEffect
        let appIds = configuration.apps.enumerated().map { ("apps[\($0.offset)]", $0.element.appId) }
        var secrets = configuration.secrets.map { secret in
            ConfigurationPage.Secret(
                path: secret.path, owner: appIds.first { secret.path.hasPrefix($0.0 + ".") }?.1 ?? "",
                source: secret.source, fingerprint: secret.fingerprint)
        }
        // API keys are configured as their SHA-256 already: its first 8 bytes are the fingerprint.
        if let hash = configuration.admin.apiKeySHA256 {
            secrets.append(.init(path: "admin.apiKeySHA256", owner: "", source: "SHA-256 in the file", fingerprint: Hex.lowercase(hash.prefix(8))))
        }
        for (index, client) in configuration.clients.enumerated() {
            secrets.append(.init(
                path: "clients[\(index)].apiKeySHA256", owner: "client \(client.id)", source: "SHA-256 in the file",
                fingerprint: Hex.lowercase(client.apiKeySHA256.prefix(8))))
        }
        return ConfigurationPage(
            generation: generation, sections: Self.sections(configuration), secrets: secrets,
            certificates: Self.certificates(configuration, nowSeconds: clock.nowMilliseconds() / 1000), reload: reload)
    }

    /// Each section's keys. Sections holding secrets (state, providers, apps) are written from
    /// their redacted fields; the others hold none and are listed whole.
    static func sections(_ configuration: PassgateConfiguration) -> [ConfigurationPage.Section] {
        typealias Row = ConfigurationPage.Row
        var sections: [ConfigurationPage.Section] = [
            .init(title: "server", rows: plainRows(configuration.server)),
            .init(title: "admin", rows: plainRows(configuration.admin)),
            .init(title: "metrics", rows: plainRows(configuration.metrics)),
            .init(title: "log", rows: plainRows(configuration.log)),
            .init(title: "state", rows: configuration.state.redactedFields.map { Row($0.label, $0.value) }),
            .init(title: "audit", rows: plainRows(configuration.audit)),
            // No secret here: the reader refuses an endpoint with credentials in it.
            .init(title: "tracing", rows: plainRows(configuration.tracing)),
            .init(title: "sandbox", rows: plainRows(configuration.sandbox)),
        ]
        for provider in configuration.providers.values.sorted(by: { $0.id < $1.id }) {
            sections.append(.init(title: "providers.\(provider.id)", rows: provider.redactedFields.map { Row($0.label, $0.value) } + [
                Row("connectTimeoutMs", "\(provider.connectTimeoutMs)"), Row("caFile", provider.caFile ?? "system trust store"),
                Row("callQueueTimeoutMs", "\(provider.callQueueTimeoutMs)"), Row("circuitFailureThreshold", "\(provider.circuitFailureThreshold)"),
                Row("circuitOpenMs", "\(provider.circuitOpenMs)"),
            ]))
        }
        for (index, app) in configuration.apps.enumerated() {
            sections.append(.init(title: "apps[\(index)]", rows: [Row("provider", app.provider)] + app.settings.redactedFields.map { Row($0.label, $0.value) }))
        }
        let clients = configuration.clients.map { client in
            Row(client.id, "apps: \(client.apps.sorted().joined(separator: ", ")); rate: \(client.ratePerSecond.map { "\($0)/s" } ?? "unlimited")")
        }
        sections.append(.init(title: "clients", rows: clients))
        return sections
    }

    /// A settings value without secrets, key by key; byte arrays (key hashes) only as "set".
    private static func plainRows(_ value: Any) -> [ConfigurationPage.Row] {
        Mirror(reflecting: value).children.compactMap { child in
            guard let label = child.label else { return nil }
            let text: String
            switch child.value {
            case let bytes as [UInt8]: text = bytes.isEmpty ? "none" : "set (Secrets)"
            case let bytes as [UInt8]?: text = bytes == nil ? "none" : "set (Secrets)"
            default:
                let mirror = Mirror(reflecting: child.value)
                text = mirror.displayStyle == .optional ? (mirror.children.first.map { "\($0.value)" } ?? "none") : "\(child.value)"
            }
            return ConfigurationPage.Row(label, text)
        }
    }

    /// Every provider's pinned CA bundle: the certificate that expires first.
    static func certificates(_ configuration: PassgateConfiguration, nowSeconds: Int64) -> [ConfigurationPage.Certificate] {
        configuration.providers.values.sorted { $0.id < $1.id }.compactMap { provider in
            guard let caFile = provider.caFile else { return nil }
            do {
                let earliest = try X509Certificates.earliestExpiry(pemFile: caFile)
                return .init(provider: provider.id, file: caFile, subject: earliest.subject, notAfter: CertificateExpiry.iso8601(earliest.notAfter),
                             daysLeft: Int((earliest.notAfter - nowSeconds) / 86_400))
            } catch {
                return .init(provider: provider.id, file: caFile, problem: "\(error)")
            }
        }
    }
}
