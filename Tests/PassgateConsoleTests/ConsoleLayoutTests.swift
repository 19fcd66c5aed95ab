import PassgateConsole
import Testing

@Suite("console layout")
struct ConsoleLayoutTests {
    static let layout = ConsoleLayout(navigation: [.init(title: "Overview", path: "/console"), .init(title: "Configuration", path: "/console/configuration")])

    @Test("a page has the viewport, the console stylesheet, one h1 in main, and the current page marked in the navigation")
    func pageFrame() {
        let page = Self.layout.page(title: "Configuration", path: "/console/configuration", csrf: "c0ffee", content: "<p>body</p>").rendered
        #expect(page.hasPrefix("<!doctype html>"))
        #expect(page.contains("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"))
        #expect(page.contains("<link rel=\"stylesheet\" href=\"/console/assets/console.css\">"))
        #expect(page.contains("<main id=\"main\">\n<h1>Configuration</h1>\n<p>body</p>"))
        #expect(page.contains("<a href=\"/console/configuration\" aria-current=\"page\">Configuration</a>"))
        #expect(page.contains("<a href=\"/console\">Overview</a>"))
        #expect(page.ranges(of: "<h1>").count == 1)
    }

    @Test("the sign-out button is a form carrying the session's CSRF token; without a session there is no navigation")
    func signOutCarriesCSRF() {
        let page = Self.layout.page(title: "Overview", path: "/console", csrf: "c0ffee", content: "").rendered
        #expect(page.contains("<form method=\"post\" action=\"/console/sign-out\">\n<input type=\"hidden\" name=\"csrf\" value=\"c0ffee\">"))
        let signIn = ConsoleMessagePage.signIn(layout: Self.layout).rendered
        #expect(!signIn.contains("<nav") && !signIn.contains("sign-out"))
        #expect(signIn.contains("<label for=\"key\">Admin key</label>") && signIn.contains("type=\"password\" id=\"key\" name=\"key\""))
    }

    @Test("a refresh interval becomes a meta refresh; the title is escaped")
    func refreshAndEscapedTitle() {
        let page = Self.layout.page(title: "A<B", path: "/x", csrf: nil, refreshSeconds: 15, content: "").rendered
        #expect(page.contains("<meta http-equiv=\"refresh\" content=\"15\">"))
        #expect(page.contains("<title>A&lt;B · Passgate console</title>") && !page.contains("A<B"))
    }
}
