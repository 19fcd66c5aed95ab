/// The configuration page (`/console/configuration`): the configuration in effect, section by
/// section, with every secret shown only as where it came from and a fingerprint; the CA
/// bundles' expiry; and the reload button with what the last reload applied.
public struct ConfigurationPage: Sendable {
    /// One section (`server`, `providers.cmcc`, `apps[0]`): its keys and values, none secret.
    public struct Section: Sendable, Equatable {
        public var title: String
        public var rows: [Row]

        public init(title: String, rows: [Row]) {
            self.title = title
            self.rows = rows
        }
    }

    public struct Row: Sendable, Equatable {
        public var key: String
        public var value: String

        public init(_ key: String, _ value: String) {
            self.key = key
            self.value = value
        }
    }

    /// A secret: its key, where it came from, and the first 8 bytes of its SHA-256.
    public struct Secret: Sendable, Equatable {
        public var path: String
        /// The app it belongs to, for an app's secret.
        public var owner: String
        public var source: String
        public var fingerprint: String

        public init(path: String, owner: String, source: String, fingerprint: String) {
            self.path = path
            self.owner = owner
            self.source = source
            self.fingerprint = fingerprint
        }
    }

    /// A provider's CA bundle and the earliest expiry in it.
    public struct Certificate: Sendable, Equatable {
        public var provider: String
        public var file: String
        /// The certificate that expires first, its subject and notAfter (ISO 8601), days left;
        /// or why the bundle could not be read.
        public var subject: String
        public var notAfter: String
        public var daysLeft: Int?
        public var problem: String?

        public init(provider: String, file: String, subject: String = "", notAfter: String = "", daysLeft: Int? = nil, problem: String? = nil) {
            self.provider = provider
            self.file = file
            self.subject = subject
            self.notAfter = notAfter
            self.daysLeft = daysLeft
            self.problem = problem
        }
    }

    /// What pressing reload did.
    public enum ReloadOutcome: Sendable, Equatable {
        case reloaded(generation: Int, applied: [String], restartRequired: [String])
        case rejected(message: String)
    }

    public static let path = "/console/configuration"
    public static let reloadPath = "/console/configuration/reload"

    public var generation: Int
    public var sections: [Section]
    public var secrets: [Secret]
    public var certificates: [Certificate]
    public var reload: ReloadOutcome?

    public init(generation: Int, sections: [Section], secrets: [Secret], certificates: [Certificate], reload: ReloadOutcome? = nil) {
        self.generation = generation
        self.sections = sections
        self.secrets = secrets
        self.certificates = certificates
        self.reload = reload
    }

    public func render(layout: ConsoleLayout, csrf: String) -> HTML {
        let button = ConsoleLayout.form(action: Self.reloadPath, csrf: csrf, label: "Reload the configuration", content: """
            <button type="submit">Reload the configuration</button>
            """)
        let content: HTML = """
            \(reloadNotice())<p>Generation <strong>\(generation)</strong> is serving (1 at start, one more per applied reload). \
            Reload re-reads the file and its secret files, as <code>POST /admin/reload</code> and SIGHUP do: <code>apps</code>, \
            <code>clients</code> and <code>server.maxBodyBytes</code> apply at once; other changed sections are listed as needing a restart.</p>
            \(button)
            <h2 id="secrets">Secrets</h2>
            \(secretsTable())
            <h2 id="certificates">CA certificates</h2>
            \(certificatesTable())
            \(sections.map(sectionTable))
            """
        return layout.page(title: "Configuration", path: Self.path, csrf: csrf, content: content)
    }

    private func reloadNotice() -> HTML {
        switch reload {
        case nil:
            return ""
        case .reloaded(let generation, let applied, let restartRequired):
            let appliedText = applied.isEmpty ? "nothing changed that applies without a restart" : applied.joined(separator: ", ")
            let restartText = restartRequired.isEmpty ? "nothing" : restartRequired.joined(separator: ", ")
            return """
                <section class="notice" role="status" aria-labelledby="reload-report"><h2 id="reload-report">Reloaded</h2>
                <dl><dt>Generation</dt><dd>\(generation)</dd><dt>Applied</dt><dd>\(appliedText)</dd>\
                <dt>Needs a restart</dt><dd>\(restartText)</dd></dl></section>

                """
        case .rejected(let message):
            return """
                <section class="notice error" role="alert" aria-labelledby="reload-report"><h2 id="reload-report">Reload rejected</h2>
                <p>\(message)</p></section>

                """
        }
    }

    private func secretsTable() -> HTML {
        guard !secrets.isEmpty else { return "<p class=\"muted\">No secrets are configured.</p>" }
        let rows = secrets.map { secret -> HTML in
            "<tr><td><code>\(secret.path)</code></td><td>\(secret.owner)</td><td><code>\(secret.source)</code></td><td><code>\(secret.fingerprint)</code></td></tr>"
        }
        return """
            <div class="scroll"><table>
            <caption>Every secret by where it comes from, never its value; the fingerprint is the first 8 bytes of its SHA-256 \
            (of a key's public half), so a rotation shows</caption>
            <thead><tr><th scope="col">Key</th><th scope="col">App</th><th scope="col">Source</th><th scope="col">Fingerprint</th></tr></thead>
            <tbody>\(rows)</tbody>
            </table></div>
            <p class="muted">RSA private keys carry no expiry date; a rotated key shows as a new fingerprint.</p>
            """
    }

    private func certificatesTable() -> HTML {
        guard !certificates.isEmpty else { return "<p>No provider pins a CA bundle (<code>caFile</code>): the system's trust store is used.</p>" }
        let rows = certificates.map { certificate -> HTML in
            let state: HTML
            if let problem = certificate.problem {
                state = "<td class=\"status-bad\">unreadable: \(problem)</td>"
            } else if let days = certificate.daysLeft, days <= 0 {
                state = "<td class=\"status-bad\">expired</td>"
            } else if let days = certificate.daysLeft, days < 30 {
                state = "<td class=\"status-warn\">expires in \(days) days</td>"
            } else {
                state = "<td class=\"status-good\">valid, \(certificate.daysLeft ?? 0) days left</td>"
            }
            return """
                <tr><td>\(certificate.provider)</td><td><code>\(certificate.file)</code></td><td>\(certificate.subject)</td>\
                <td>\(certificate.notAfter)</td>\(state)</tr>
                """
        }
        return """
            <div class="scroll"><table>
            <caption>The certificate in each provider's CA bundle that expires first</caption>
            <thead><tr><th scope="col">Provider</th><th scope="col">caFile</th><th scope="col">Subject</th><th scope="col">Not after</th>\
            <th scope="col">State</th></tr></thead>
            <tbody>\(rows)</tbody>
            </table></div>
            """
    }

    private func sectionTable(_ section: Section) -> HTML {
        let rows = section.rows.map { row -> HTML in "<tr><th scope=\"row\">\(row.key)</th><td><code>\(row.value)</code></td></tr>" }
        return """
            <h2>\(section.title)</h2>
            <div class="scroll"><table>
            <caption>\(section.title) in effect</caption>
            <tbody>\(rows)</tbody>
            </table></div>

            """
    }
}
