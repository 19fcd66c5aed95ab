/// The frame of every console page: the document head (viewport for phones, the console's own
/// stylesheet), a skip link, the navigation with the current page marked, the sign-out button and
/// the page's `main` with its one `h1`. Pages supply only their content.
public struct ConsoleLayout: Sendable {
    /// One entry of the navigation.
    public struct Link: Sendable, Equatable {
        public var title: String
        /// Absolute path on the admin listener, e.g. `/console/configuration`.
        public var path: String

        public init(title: String, path: String) {
            self.title = title
            self.path = path
        }
    }

    /// The stylesheet's path (served by the binary; the CSP allows nothing else).
    public static let stylesheetPath = "/console/assets/console.css"
    /// Where the sign-in form is, and where a request without a session is sent.
    public static let signInPath = "/console/sign-in"
    public static let signOutPath = "/console/sign-out"
    /// The form field every state-changing form carries.
    public static let csrfField = "csrf"

    /// The pages, in navigation order.
    public var navigation: [Link]

    public init(navigation: [Link]) {
        self.navigation = navigation
    }

    /// A whole page. `path` marks the current navigation entry; `csrf` (the session's token) is
    /// needed for the sign-out button, and its absence (the sign-in page) leaves navigation out.
    /// `refreshSeconds` reloads the page by itself (a meta refresh: no script).
    public func page(title: String, path: String, csrf: String?, refreshSeconds: Int? = nil, content: HTML) -> HTML {
        let refresh: HTML = refreshSeconds.map { "<meta http-equiv=\"refresh\" content=\"\($0)\">" } ?? ""
        let header: HTML = csrf.map { navigationHeader(path: path, csrf: $0) } ?? ""
        return """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            \(refresh)<title>\(title) · Passgate console</title>
            <link rel="stylesheet" href="\(Self.stylesheetPath)">
            </head>
            <body>
            <a class="skip" href="#main">Skip to content</a>
            \(header)<main id="main">
            <h1>\(title)</h1>
            \(content)
            </main>
            </body>
            </html>

            """
    }

    /// A form that changes something: POST to `action`, with the session's CSRF token as a hidden
    /// field. Every state-changing form is made here, so none goes out without its token.
    public static func form(action: String, csrf: String, label: String? = nil, content: HTML) -> HTML {
        let name: HTML = label.map { " aria-label=\"\($0)\"" } ?? ""
        return """
            <form method="post" action="\(action)"\(name)>
            <input type="hidden" name="\(csrfField)" value="\(csrf)">
            \(content)
            </form>
            """
    }

    private func navigationHeader(path: String, csrf: String) -> HTML {
        let links = navigation.map { link -> HTML in
            let current: HTML = link.path == path ? " aria-current=\"page\"" : ""
            return "<li><a href=\"\(link.path)\"\(current)>\(link.title)</a></li>"
        }
        let signOut = Self.form(action: Self.signOutPath, csrf: csrf, content: "<button type=\"submit\">Sign out</button>")
        return """
            <header>
            <p class="brand">Passgate console</p>
            <nav aria-label="Console pages"><ul>\(links)</ul></nav>
            \(signOut)
            </header>

            """
    }
}
