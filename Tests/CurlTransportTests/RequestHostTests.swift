import Testing

@testable import CurlTransport

/// The host named in errors and metrics, parsed over bytes once per transfer.
@Suite("Request host")
struct RequestHostTests {
    @Test("the host is the authority without credentials, port or brackets", arguments: [
        ("https://www.cmpassport.com/unisdk/rsapi/loginTokenValidate", "www.cmpassport.com"),
        ("http://127.0.0.1:8090/x", "127.0.0.1"), ("http://user:pw@carrier.test:443/", "carrier.test"),
        ("http://[::1]:8090/path", "::1"), ("https://carrier.test?q=1", "carrier.test"), ("https://carrier.test#f", "carrier.test"),
        ("https://例子.测试/", "例子.测试"),
    ])
    func host(url: String, host: String) {
        #expect(CurlHTTPClient.Request(url: url).host == host)
    }

    @Test("a URL without a scheme or with an empty host has none", arguments: ["carrier.test/path", "http:///path", "", "://"])
    func noHost(url: String) {
        #expect(CurlHTTPClient.Request(url: url).host == nil)
    }
}
