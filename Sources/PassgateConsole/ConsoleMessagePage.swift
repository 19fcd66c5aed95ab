/// The sign-in page and the short pages that answer a refused or failed request.
public enum ConsoleMessagePage {
    /// The sign-in form; `problem` says why the last attempt failed (never echoing the key).
    public static func signIn(layout: ConsoleLayout, problem: String? = nil) -> HTML {
        let notice: HTML = problem.map { "<p class=\"notice error\" role=\"alert\">\($0)</p>\n" } ?? ""
        return layout.page(title: "Sign in", path: ConsoleLayout.signInPath, csrf: nil, content: """
            \(notice)<p>Sign in with the admin key (the key whose SHA-256 is <code>admin.apiKeySHA256</code>).</p>
            <form method="post" action="\(ConsoleLayout.signInPath)">
            <label for="key">Admin key</label>
            <input type="password" id="key" name="key" autocomplete="current-password" required autofocus>
            <button type="submit">Sign in</button>
            </form>
            """)
    }

    /// A refusal or failure: what happened and what to do, with a way back.
    public static func problem(layout: ConsoleLayout, title: String, message: String, csrf: String?) -> HTML {
        let back: HTML = csrf == nil ? "<a href=\"\(ConsoleLayout.signInPath)\">Sign in</a>" : "<a href=\"/console\">Back to the overview</a>"
        return layout.page(title: title, path: "", csrf: csrf, content: """
            <p class="notice error" role="alert">\(message)</p>
            <p>\(back)</p>
            """)
    }
}
