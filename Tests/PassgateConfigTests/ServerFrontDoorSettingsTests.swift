import PassgateConfig
import PassgateTestSupport
import Testing

/// `server:`'s limits on the listener's clients (headerTimeoutMs, bodyTimeoutMs, idleTimeoutMs,
/// maxConnections, maxHeaderBytes, authFailuresPerMinute).
@Suite("server: front door settings")
struct ServerFrontDoorSettingsTests {
    @Test("the defaults, what the file sets and what the environment overrides")
    func read() throws {
        let defaults = try ConfigurationLoader.testing(environment: [:]).load(yaml: "server: {port: 9000}", baseDirectory: "/").server
        #expect(defaults.headerTimeoutMs == 10_000 && defaults.bodyTimeoutMs == 10_000 && defaults.idleTimeoutMs == 75_000)
        #expect(defaults.maxConnections == 16_384 && defaults.maxHeaderBytes == 8_192 && defaults.authFailuresPerMinute == 60)
        let yaml = """
            server: {headerTimeoutMs: 2000, bodyTimeoutMs: 3000, idleTimeoutMs: 4000, maxConnections: 500, maxHeaderBytes: 4096, authFailuresPerMinute: 0}
            """
        let read = try ConfigurationLoader.testing(environment: ["PASSGATE_SERVER_MAXCONNECTIONS": "600"]).load(yaml: yaml, baseDirectory: "/").server
        #expect(read.headerTimeoutMs == 2_000 && read.bodyTimeoutMs == 3_000 && read.idleTimeoutMs == 4_000)
        #expect(read.maxConnections == 600 && read.maxHeaderBytes == 4_096 && read.authFailuresPerMinute == 0)
    }

    @Test("a value out of range is a problem naming its key", arguments: [
        ("server: {headerTimeoutMs: 99}", "server.headerTimeoutMs"), ("server: {bodyTimeoutMs: 300001}", "server.bodyTimeoutMs"),
        ("server: {idleTimeoutMs: 999}", "server.idleTimeoutMs"), ("server: {maxConnections: 0}", "server.maxConnections"),
        ("server: {maxHeaderBytes: 1023}", "server.maxHeaderBytes"), ("server: {maxHeaderBytes: 65537}", "server.maxHeaderBytes"),
        ("server: {authFailuresPerMinute: -1}", "server.authFailuresPerMinute"), ("server: {headerTimeoutMs: soon}", "server.headerTimeoutMs"),
    ])
    func ranges(line: String, path: String) {
        #expect(problems(line).map(\.path) == [path])
    }
}
