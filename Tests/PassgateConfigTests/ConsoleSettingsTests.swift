import PassgateConfig
import PassgateCore
import PassgateTestSupport
import Testing

/// `admin.console*`: the console's session limits and cookie setting.
@Suite("console settings")
struct ConsoleSettingsTests {
    @Test("the defaults: 30 idle minutes, 480 minutes in all, 20 sessions, Secure only behind TLS")
    func defaults() throws {
        let admin = try ConfigurationLoader.testing(environment: [:]).load(yaml: "", baseDirectory: "/").admin
        #expect(admin.consoleIdleMinutes == 30 && admin.consoleSessionMinutes == 480 && admin.consoleMaxSessions == 20 && !admin.consoleSecureCookie)
    }

    @Test("read from the file and from PASSGATE_ADMIN_CONSOLE* overrides")
    func read() throws {
        let yaml = "admin: {consoleIdleMinutes: 5, consoleSessionMinutes: 60, consoleMaxSessions: 3, consoleSecureCookie: true}"
        let admin = try ConfigurationLoader.testing(environment: ["PASSGATE_ADMIN_CONSOLEMAXSESSIONS": "4"]).load(yaml: yaml, baseDirectory: "/").admin
        #expect(admin.consoleIdleMinutes == 5 && admin.consoleSessionMinutes == 60 && admin.consoleMaxSessions == 4 && admin.consoleSecureCookie)
    }

    @Test("out of range, or a whole life shorter than the idle limit, is a problem naming the key", arguments: [
        ("admin: {consoleIdleMinutes: 0}", "admin.consoleIdleMinutes", "1-1440"),
        ("admin: {consoleSessionMinutes: 20000}", "admin.consoleSessionMinutes", "5-10080"),
        ("admin: {consoleMaxSessions: 0}", "admin.consoleMaxSessions", "1-1000"),
        ("admin: {consoleSecureCookie: maybe}", "admin.consoleSecureCookie", "true or false"),
        ("admin: {consoleIdleMinutes: 60, consoleSessionMinutes: 30}", "admin.consoleSessionMinutes", "shorter than admin.consoleIdleMinutes"),
    ])
    func problemsNameTheKey(yaml: String, path: String, fragment: String) {
        let found = problems(yaml)
        #expect(found.map(\.path) == [path], "\(found)")
        #expect(found.first?.message.contains(fragment) == true, "\(found.first?.message ?? "")")
    }
}

/// `PassgateConfiguration.secrets`: where each secret came from, for the console.
@Suite("secret sources")
struct SecretSourceTests {
    @Test("each resolved secret keeps its source and the first 8 bytes of its SHA-256, never its value")
    func sources() throws {
        let yaml = """
            sandbox: {enabled: true}
            state: {replayKey: "env:REPLAY"}
            providers: {cmcc: {baseURLs: ["https://cmcc.invalid"]}}
            apps:
              - {appId: "300011111111", provider: cmcc, signMode: md5, secret: "literal-secret-value-1234"}
            """
        let replay = String(repeating: "0f", count: 32)
        let configuration = try ConfigurationLoader.testing(environment: ["REPLAY": replay]).load(yaml: yaml, baseDirectory: "/")
        let byPath = Dictionary(uniqueKeysWithValues: configuration.secrets.map { ($0.path, $0) })
        #expect(byPath["state.replayKey"]?.source == "env:REPLAY")
        #expect(byPath["state.replayKey"]?.fingerprint == SecretSource.fingerprint(of: Array(replay.utf8)))
        #expect(byPath["apps[0].secret"]?.source == "literal (sandbox)")
        #expect(byPath["apps[0].secret"]?.fingerprint.count == 16)
        #expect(!"\(configuration.secrets)".contains("literal-secret-value") && !"\(configuration.secrets)".contains(replay))
    }
}
