import Foundation
import PassgateConfig
import PassgateTestSupport
import Testing

@Suite("PASSGATE_<SECTION>_<KEY> environment overrides")
struct EnvironmentOverrideTests {
    @Test("overrides replace the file's scalar values in server, log, state, sandbox and providers.cmcc")
    func overridesApply() throws {
        var environment = Minimal.environment
        environment.merge([
            "PASSGATE_SERVER_HOST": "0.0.0.0",
            "PASSGATE_SERVER_PORT": "9090",
            "PASSGATE_SERVER_MAXBODYBYTES": "2048",
            "PASSGATE_SERVER_DRAINSECONDS": "0",
            "PASSGATE_LOG_LEVEL": "DEBUG",
            "PASSGATE_LOG_FORMAT": "text",
            "PASSGATE_STATE_BACKEND": "redis",
            "PASSGATE_STATE_REDISURL": "redis://cache.internal:6380/2",
            "PASSGATE_STATE_REPLAYTTLSECONDS": "600",
            "PASSGATE_SANDBOX_PORT": "0",
            "PASSGATE_SANDBOX_FAULT": "wrongInResponseTo",
            "PASSGATE_SANDBOX_LATENCYMS": "250",
            "PASSGATE_PROVIDERS_CMCC_TIMEOUTMS": "5000",
            "PASSGATE_PROVIDERS_CMCC_PROXY": "socks5h://127.0.0.1:1080",
            "PASSGATE_UNRELATED": "ignored",
        ]) { $1 }
        let yaml = Minimal.yaml(server: "port: 8080, host: 127.0.0.1", state: "backend: memory")
        let configuration = try ConfigurationLoader.testing(environment: environment, sandboxFaults: Minimal.sandboxFaults).load(yaml: yaml, baseDirectory: "/")
        #expect(configuration.server.host == "0.0.0.0")
        #expect(configuration.server.port == 9090)
        #expect(configuration.server.maxBodyBytes == 2048)
        #expect(configuration.server.drainSeconds == 0)
        #expect(String(describing: configuration.log.level) == "debug")
        #expect(configuration.log.format == .text)
        #expect(configuration.state.backend == .redis)
        #expect(configuration.state.redisURL == "redis://cache.internal:6380/2")
        #expect(configuration.state.replayTTLSeconds == 600)
        #expect(configuration.sandbox.port == 0)
        #expect(configuration.sandbox.fault == "wrongInResponseTo")
        #expect(configuration.sandbox.latencyMs == 250)
        #expect(configuration.providers["cmcc"]?.timeoutMs == 5000)
        #expect(configuration.providers["cmcc"]?.proxy == "socks5h://127.0.0.1:1080")
    }

    @Test("PASSGATE_SANDBOX_ENABLED turns the sandbox on, which admits literal secrets")
    func sandboxOverrideAllowsLiterals() throws {
        let yaml = """
            apps:
              - {appId: "300011111111", signMode: md5, secret: "0123456789ABCDEF0123456789ABCDEF"}
            """
        #expect(problems(yaml).map(\.path) == ["apps[0].provider", "apps[0].secret"])  // no providers.cmcc either
        let configuration = try ConfigurationLoader.testing(environment: ["PASSGATE_SANDBOX_ENABLED": "true"]).load(yaml: yaml, baseDirectory: "/")
        #expect(configuration.sandbox.enabled)
        #expect(configuration.providers["cmcc"]?.baseURLs == [])
    }

    @Test("an empty override counts as unset")
    func emptyOverrideIgnored() throws {
        var environment = Minimal.environment
        environment["PASSGATE_SERVER_PORT"] = ""
        let configuration = try ConfigurationLoader.testing(environment: environment).load(yaml: Minimal.yaml(server: "port: 8181"), baseDirectory: "/")
        #expect(configuration.server.port == 8181)
    }

    @Test("invalid override values are problems that name the variable and the key path")
    func invalidOverridesReported() {
        var environment = Minimal.environment
        environment.merge([
            "PASSGATE_SERVER_PORT": "abc",
            "PASSGATE_LOG_LEVEL": "verbose",
            "PASSGATE_STATE_REPLAYTTLSECONDS": "60",
            "PASSGATE_SANDBOX_ENABLED": "maybe",
            "PASSGATE_SANDBOX_FAULT": "http503",
        ]) { $1 }
        let found = problems(Minimal.yaml(), environment: environment)
        // File order by the section's line; log is not in the file, so its problem comes last.
        #expect(found.map(\.path) == ["server.port", "state.replayTTLSeconds", "sandbox.enabled", "sandbox.fault", "log.level"])
        #expect(found.map(\.line) == [1, 2, 9, 9, nil])
        #expect(found.map(\.message) == [
            "server.port (from PASSGATE_SERVER_PORT) must be an integer 0-65535 (0 picks a free port), got 'abc'",
            "state.replayTTLSeconds (from PASSGATE_STATE_REPLAYTTLSECONDS) must be an integer 130-86400 (it must outlast the carrier's 2-minute token life), got '60'",
            "sandbox.enabled (from PASSGATE_SANDBOX_ENABLED) must be true or false, got 'maybe'",
            "sandbox.fault (from PASSGATE_SANDBOX_FAULT) must be one of none, http500, http502, wrongInResponseTo, got 'http503'; did you mean 'http500'?",
            "log.level (from PASSGATE_LOG_LEVEL) must be one of trace, debug, info, notice, warning, error, critical, got 'verbose'",
        ])
    }

    @Test("PASSGATE_STATE_REPLAYKEY may carry the key itself, as safe as env:NAME, or a reference")
    func replayKeyOverride() throws {
        let hex = String(repeating: "0f", count: 32)
        var environment = Minimal.environment
        environment["PASSGATE_STATE_REPLAYKEY"] = hex
        let direct = try ConfigurationLoader.testing(environment: environment).load(yaml: Minimal.yaml(), baseDirectory: "/")
        #expect(direct.state.replayKey == [UInt8](repeating: 0x0F, count: 32))

        environment["PASSGATE_STATE_REPLAYKEY"] = "env:SHARED_REPLAY_KEY"
        environment["SHARED_REPLAY_KEY"] = String(repeating: "f0", count: 32)
        let referenced = try ConfigurationLoader.testing(environment: environment).load(yaml: Minimal.yaml(state: "replayKey: \"env:OTHER\""), baseDirectory: "/")
        #expect(referenced.state.replayKey == [UInt8](repeating: 0xF0, count: 32))
    }
}
