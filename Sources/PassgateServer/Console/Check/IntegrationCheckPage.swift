import PassgateConsole
import PassgateCore

/// The integration check's page content: the last submission's result (first, where it is seen
/// without scrolling), then the form. The form is never filled back with the token, the number or the fields (they may hold the token): only
/// the app and the mode are kept.
struct IntegrationCheckPage {
    static let path = "/console/check"
    static let title = "Integration check"

    /// What the form offers: each app with its provider, and the fields each provider reads.
    var apps: [(appId: String, provider: String)]
    var fields: [String: [ProviderField]]
    var csrf: String
    var selectedApp: String?
    var mode: IntegrationCheckForm.Mode = .explain
    var problem: IntegrationCheckForm.Problem?
    var explained: IntegrationCheck.Explained?
    var exchanged: IntegrationCheck.Exchanged?

    var content: HTML {
        let problem: HTML = self.problem.map {
            "<p id=\"check-problem\" class=\"notice error\" role=\"alert\"><strong>\($0.field):</strong> \($0.message)</p>\n"
        } ?? ""
        let result: HTML = explained.map(Self.content) ?? exchanged.map(Self.content) ?? ""
        return """
            <p>Paste a token from the provider's SDK and see what Passgate sends for it (<strong>explain</strong>: nothing is sent) \
            or what the provider answers (<strong>exchange</strong>). Tokens and phone numbers are shown masked.</p>
            \(problem)\(result)\(form)
            """
    }

    private var form: HTML {
        let options = apps.map { app -> HTML in
            let selected: HTML = app.appId == selectedApp ? " selected" : ""
            return "<option value=\"\(app.appId)\"\(selected)>\(app.appId) (\(app.provider))</option>"
        }
        let modes = IntegrationCheckForm.Mode.allCases.map { option -> HTML in
            let checked: HTML = option == mode ? " checked" : ""
            let label = option == .explain ? "Explain: sign the request and show it; nothing is sent" : "Exchange: send it to the provider"
            return "<label><input type=\"radio\" id=\"mode-\(option.rawValue)\" name=\"mode\" value=\"\(option.rawValue)\"\(checked)> \(label)</label>\n"
        }
        let form = ConsoleLayout.form(action: Self.path, csrf: csrf, label: "Check a token", content: """
            <label for="appId">App</label>
            <select id="appId" name="appId" required>\(options)</select>
            <label for="token">Token</label>
            <textarea id="token" name="token" rows="3" required autocomplete="off" spellcheck="false"></textarea>
            <label for="providerFields">providerFields, one NAME=VALUE a line</label>
            <textarea id="providerFields" name="providerFields" rows="3" autocomplete="off" spellcheck="false" aria-describedby="fields-help"></textarea>
            <p id="fields-help" class="muted">\(fieldsHelp)</p>
            <label for="phoneNumber">Phone number, only for a number verification</label>
            <input type="text" id="phoneNumber" name="phoneNumber" inputmode="numeric" maxlength="11" autocomplete="off">
            <fieldset><legend>Mode</legend>
            \(modes)</fieldset>
            <p id="exchange-warning" class="notice" role="note"><strong>Warning:</strong> exchange spends the token: the provider accepts \
            each token once, and the call is billed and audited like any other (as client <code>console</code>).</p>
            <button id="check-submit" type="submit">Check</button>
            """)
        return "<h2 id=\"form-heading\">Check a token</h2>\n\(form)"
    }

    /// The fields each provider reads, so the form says what to paste.
    private var fieldsHelp: String {
        let parts = Set(apps.map(\.provider)).sorted().compactMap { provider -> String? in
            guard let declared = fields[provider], !declared.isEmpty else { return nil }
            return "\(provider): " + declared.map { $0.name + ($0.required ? " (required)" : "") }.joined(separator: ", ")
        }
        return parts.isEmpty ? "No configured provider reads any." : "Read by " + parts.joined(separator: "; ") + "."
    }

    static func content(_ explained: IntegrationCheck.Explained) -> HTML {
        let details = explained.details.map { "<tr><th scope=\"row\">\($0.label)</th><td><code>\($0.value)</code></td></tr>\n" as HTML }
        let headers = explained.headers.map { "<tr><th scope=\"row\">\($0.name)</th><td><code>\($0.value)</code></td></tr>\n" as HTML }
        return """
            <section id="check-result" aria-labelledby="result-heading">
            <h2 id="result-heading">What Passgate would send</h2>
            <p>\(explained.provider), \(explained.operation.rawValue): signed as the server signs it, not sent.</p>
            <div class="scroll"><table id="explain-details"><caption>The provider's explanation</caption><tbody>
            \(details)</tbody></table></div>
            <div class="scroll"><table id="request-headers"><caption>The request</caption><tbody>
            <tr><th scope="row">Request line</th><td><code id="request-line">\(explained.requestLine)</code></td></tr>
            \(headers)<tr><th scope="row">Body</th><td><code id="request-body">\(explained.body)</code></td></tr>
            </tbody></table></div>
            </section>
            """
    }

    static func content(_ exchanged: IntegrationCheck.Exchanged) -> HTML {
        let replayed: HTML = exchanged.replayed
            ? "<p class=\"notice\">Answered from the replay cache: this token was exchanged before; the provider was not called again.</p>\n" : ""
        let replies = exchanged.replies.enumerated().map { index, reply -> HTML in
            let outcome: HTML = reply.failure.map { "<p>No reply: \($0)</p>" }
                ?? """
                <p>HTTP \(reply.status.map(String.init) ?? "-"), Content-Type \(reply.contentType ?? "none")\(reply.cut ? " (body cut)" : "")</p>
                <p class="mono">\(reply.body)</p>
                """
            return "<div class=\"reply\"><h3>Attempt \(index + 1): <code>\(reply.url)</code></h3>\n\(outcome)</div>\n"
        }
        let error: HTML = exchanged.error.map(Self.content) ?? ""
        return """
            <section id="check-result" aria-labelledby="result-heading">
            <h2 id="result-heading">What the provider answered</h2>
            \(replayed)\(replies)\(error)<h3>Passgate's answer, as the REST API gives it: HTTP \(exchanged.status)</h3>
            <p id="normalized-answer" class="mono">\(exchanged.answer)</p>
            </section>
            """
    }

    static func content(_ error: IntegrationCheck.ExplainedError) -> HTML {
        var rows: [(String, String)] = [("Code", error.code.rawValue), ("HTTP status", String(error.httpStatus)), ("Meaning", error.meaning)]
        if let carrier = error.carrier {
            rows.append(("Provider code", "\(carrier.provider) \(carrier.code)"))
            if let message = carrier.message { rows.append(("Provider message", message)) }
        }
        rows += [("Message", error.message), ("Action", error.action.rawValue), ("Retry with the same token", error.retryable ? "yes" : "no")]
        let cells = rows.map { "<tr><th scope=\"row\">\($0.0)</th><td>\($0.1)</td></tr>\n" as HTML }
        return "<div class=\"scroll\"><table id=\"error-explained\"><caption>The error</caption><tbody>\n\(cells)</tbody></table></div>\n"
    }
}
