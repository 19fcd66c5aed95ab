import PassgateConsole
import Testing

@Suite("HTML writer")
struct HTMLTests {
    @Test("an interpolated string is escaped in text and in quoted attributes; literal markup is kept")
    func escapesInterpolatedText() {
        let value = "<script>alert('x')</script> & \"quoted\""
        let html: HTML = "<p title=\"\(value)\">\(value)</p>"
        #expect(html.rendered == "<p title=\"&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;quoted&quot;\">"
            + "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;quoted&quot;</p>")
    }

    @Test("HTML interpolated into HTML goes in as it is, once: no double escaping")
    func nestedHTMLIsNotEscapedAgain() {
        let inner: HTML = "<b>\("a&b")</b>"
        let outer: HTML = "<p>\(inner)\([inner, inner])</p>"
        #expect(outer.rendered == "<p><b>a&amp;b</b><b>a&amp;b</b><b>a&amp;b</b></p>")
    }

    @Test("numbers are written as digits and text without special characters is unchanged")
    func numbersAndPlainText() {
        let html: HTML = "<td>\(42)</td><td>\(Int64(-7))</td><td>\("plain 中文 text")</td>"
        #expect(html.rendered == "<td>42</td><td>-7</td><td>plain 中文 text</td>")
        #expect(HTML(text: "a<b").rendered == "a&lt;b")
    }
}
