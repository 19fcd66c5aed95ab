import PassgateState
import Testing

@Suite("RedisURL")
struct RedisURLTests {
    @Test("defaults: port 6379, database 0")
    func defaults() throws {
        let url = try RedisURL(parsing: "redis://cache.internal")
        #expect(url == RedisURL(host: "cache.internal", port: 6379, database: 0))
        #expect(url.endpoint == "cache.internal:6379")
    }

    @Test("host, port and database", arguments: [
        ("redis://127.0.0.1:6380", RedisURL(host: "127.0.0.1", port: 6380, database: 0)),
        ("redis://localhost:7000/3", RedisURL(host: "localhost", port: 7000, database: 3)),
        ("redis://localhost/2", RedisURL(host: "localhost", port: 6379, database: 2)),
        ("redis://localhost/", RedisURL(host: "localhost", port: 6379, database: 0)),
        ("REDIS://Host:1", RedisURL(host: "Host", port: 1, database: 0)),
        ("redis://[::1]:6390/1", RedisURL(host: "::1", port: 6390, database: 1)),
    ])
    func parses(text: String, expected: RedisURL) throws {
        #expect(try RedisURL(parsing: text) == expected)
    }

    @Test("rejections name the problem", arguments: [
        ("http://localhost", "does not start with redis://"),
        ("rediss://localhost", "TLS"),
        ("redis://", "no host"),
        ("redis://:6379", "no host"),
        ("redis://localhost:0", "port \"0\""),
        ("redis://localhost:70000", "port \"70000\""),
        ("redis://localhost:abc", "port \"abc\""),
        ("redis://localhost/x", "database \"x\""),
        ("redis://localhost/-1", "database \"-1\""),
        ("redis://localhost?timeout=1", "query options"),
        ("redis://[::1", "closing ]"),
    ])
    func rejects(text: String, fragment: String) {
        #expect {
            try RedisURL(parsing: text)
        } throws: { error in
            let message = (error as? RedisConfigurationError)?.message ?? ""
            return message.contains(fragment) && message.contains("expected redis://host[:port][/db]")
        }
    }

    @Test("credentials are rejected and never echoed")
    func credentialsRedacted() {
        #expect {
            try RedisURL(parsing: "redis://user:s3cret@localhost:6379")
        } throws: { error in
            let message = (error as? RedisConfigurationError)?.message ?? ""
            return message.contains("credentials") && !message.contains("s3cret") && message.contains("@localhost")
        }
    }

    @Test("description and endpoint")
    func description() throws {
        #expect(try RedisURL(parsing: "redis://h:1/2").description == "redis://h:1/2")
        #expect(RedisURL(host: "::1", port: 7).endpoint == "[::1]:7")
    }
}
