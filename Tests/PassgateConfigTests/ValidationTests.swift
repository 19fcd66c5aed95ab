import Foundation
import PassgateConfig
import PassgateCore
import ProviderAliyun
import ProviderJVerification
import ProviderShanyan
import PassgateTestSupport
import Testing

@Suite("Validation rules")
struct ValidationTests {
    @Test("the minimal production-shaped config loads and fills in the documented defaults")
    func defaults() throws {
        let configuration = try ConfigurationLoader.testing(environment: Minimal.environment).load(yaml: Minimal.yaml(), baseDirectory: "/srv")
        #expect(configuration.server == ServerSettings())
        #expect(configuration.log == LogSettings())
        #expect(configuration.state == StateSettings())
        #expect(configuration.sandbox.enabled == false)
        #expect(configuration.sandbox.keyDirectory == "/srv/.passgate/sandbox")
        #expect(configuration.providers["cmcc"]?.connectTimeoutMs == 1000)
        #expect(configuration.providers["cmcc"]?.timeoutMs == 3000)
        #expect(configuration.apps.first?.provider == "cmcc")
        #expect(configuration.clients.first?.ratePerSecond == nil)
    }

    @Test("an empty file is a valid (if idle) configuration")
    func emptyFile() throws {
        let configuration = try ConfigurationLoader.testing(environment: [:]).load(yaml: "", baseDirectory: "/")
        #expect(configuration.apps.isEmpty && configuration.clients.isEmpty && configuration.providers.isEmpty)
    }

    @Test("server, log and sandbox ranges", arguments: [
        ("server: {port: 65536}", "server.port"), ("server: {port: -1}", "server.port"), ("server: {host: \"\"}", "server.host"),
        ("server: {maxBodyBytes: 1023}", "server.maxBodyBytes"), ("server: {maxBodyBytes: 1048577}", "server.maxBodyBytes"),
        ("server: {drainSeconds: 301}", "server.drainSeconds"), ("server: {port: [1]}", "server.port"),
        ("log: {level: warn}", "log.level"), ("log: {format: xml}", "log.format"),
        ("sandbox: {port: 70000}", "sandbox.port"), ("sandbox: {latencyMs: 60001}", "sandbox.latencyMs"),
        ("sandbox: {fault: explode}", "sandbox.fault"), ("sandbox: {enabled: 2}", "sandbox.enabled"),
        ("server: {prot: 1}", "server.prot"), ("log: [info]", "log"),
        ("state: {replayTTLSeconds: 120}", "state.replayTTLSeconds"), ("state: {backend: etcd}", "state.backend"),
        ("server: {shutdownTimeoutSeconds: 0}", "server.shutdownTimeoutSeconds"), ("admin: {port: 65536}", "admin.port"),
        ("server: {eventLoops: 0}", "server.eventLoops"), ("server: {eventLoops: 257}", "server.eventLoops"),
        ("server: {requestsOnEventLoop: -1}", "server.requestsOnEventLoop"), ("server: {requestsOnEventLoop: 4097}", "server.requestsOnEventLoop"),
        ("admin: {apiKeySHA256: \"not-a-hash\"}", "admin.apiKeySHA256"), ("admin: {host: \"\"}", "admin.host"),
        ("server: {port: 9000}\nadmin: {port: 9000, apiKeySHA256: \"\(String(repeating: "ab", count: 32))\"}", "admin.port"),
    ])
    func scalarRanges(line: String, path: String) {
        #expect(problems(line).map(\.path) == [path])
    }

    @Test("the admin listener is off without a key hash and on with one; shutdownTimeoutSeconds is read")
    func adminAndShutdown() throws {
        let off = try ConfigurationLoader.testing(environment: [:]).load(yaml: "admin: {port: 9100}", baseDirectory: "/")
        #expect(!off.admin.isEnabled && off.admin.port == 9100 && off.server.shutdownTimeoutSeconds == 15)
        let hash = String(repeating: "ab", count: 32)
        let on = try ConfigurationLoader.testing(environment: ["PASSGATE_SERVER_SHUTDOWNTIMEOUTSECONDS": "40"])
            .load(yaml: "admin: {apiKeySHA256: \"\(hash)\"}", baseDirectory: "/")
        #expect(on.admin.isEnabled && on.admin.host == "127.0.0.1" && on.admin.port == 8081 && on.server.shutdownTimeoutSeconds == 40)
    }

    @Test("server.eventLoops is unset by default, read from the file and from PASSGATE_SERVER_EVENTLOOPS")
    func eventLoops() throws {
        #expect(try ConfigurationLoader.testing(environment: [:]).load(yaml: "server: {port: 9000}", baseDirectory: "/").server.eventLoops == nil)
        #expect(try ConfigurationLoader.testing(environment: [:]).load(yaml: "server: {eventLoops: 3}", baseDirectory: "/").server.eventLoops == 3)
        let overridden = try ConfigurationLoader.testing(environment: ["PASSGATE_SERVER_EVENTLOOPS": "2"]).load(yaml: "server: {eventLoops: 3}", baseDirectory: "/")
        #expect(overridden.server.eventLoops == 2)
    }

    @Test("server.requestsOnEventLoop is unset by default, read from the file (0 allowed) and from PASSGATE_SERVER_REQUESTSONEVENTLOOP")
    func requestsOnEventLoop() throws {
        let loader = ConfigurationLoader.testing(environment: [:])
        #expect(try loader.load(yaml: "server: {port: 9000}", baseDirectory: "/").server.requestsOnEventLoop == nil)
        #expect(try loader.load(yaml: "server: {requestsOnEventLoop: 0}", baseDirectory: "/").server.requestsOnEventLoop == 0)
        let overridden = try ConfigurationLoader.testing(environment: ["PASSGATE_SERVER_REQUESTSONEVENTLOOP": "4"])
            .load(yaml: "server: {requestsOnEventLoop: 1}", baseDirectory: "/")
        #expect(overridden.server.requestsOnEventLoop == 4)
    }

    @Test("close misspellings get a suggestion")
    func suggestions() {
        #expect(problems("server: {prot: 1}").first?.message == "unknown key 'prot' in server; did you mean 'port'?")
        #expect(problems("state: {redisUrl: x}").first?.message.contains("did you mean 'redisURL'? (names are case-sensitive)") == true)
        #expect(problems("log: {level: warn}").first?.message.contains("did you mean 'warning'?") == true)
        #expect(problems("zzz: 1").first?.message == "unknown key 'zzz' at top level; known keys: server, admin, metrics, log, state, providers, apps, clients, sandbox, audit, tracing")
    }

    @Test("port 0 is accepted for ephemeral ports, and choices match case-insensitively")
    func ephemeralPortAndCaseInsensitiveChoices() throws {
        let yaml = Minimal.yaml(server: "port: 0", sandbox: "port: 0, fault: HTML")
        let loader = ConfigurationLoader.testing(environment: Minimal.environment, sandboxFaults: ["html"])
        let configuration = try loader.load(yaml: yaml + "\nlog: {level: Warning, format: TEXT}", baseDirectory: "/")
        #expect(configuration.server.port == 0)
        #expect(configuration.sandbox.port == 0 && configuration.sandbox.fault == "html")
        #expect(String(describing: configuration.log.level) == "warning" && configuration.log.format == .text)
    }

    @Test("the redis URL is checked only when the backend is redis")
    func redisURL() {
        #expect(problems(Minimal.yaml(state: "redisURL: \"nonsense\""), environment: Minimal.environment).isEmpty)
        for bad in ["nonsense", "http://cache:6379", "redis://cache:6379/zero", "redis://:pw@cache:6379/0"] {
            let found = problems(Minimal.yaml(state: "backend: redis, redisURL: \"\(bad)\""), environment: Minimal.environment)
            #expect(found.map(\.path) == ["state.redisURL"], "\(bad)")
            #expect(found.first?.message.contains(":pw@") == false)
        }
        for good in ["redis://cache", "redis://127.0.0.1:6379", "redis://cache.internal:6380/2", "redis://[::1]:6379/0"] {
            #expect(problems(Minimal.yaml(state: "backend: redis, redisURL: \"\(good)\""), environment: Minimal.environment).isEmpty, "\(good)")
        }
    }

    @Test("base URLs: https, or http to a loopback host only", arguments: [
        ("https://www.cmpassport.com", true), ("https://onekey2.cmpassport.com/", true), ("http://127.0.0.1:8090", true),
        ("http://127.10.0.1:8090", true), ("http://localhost:8090", true), ("http://[::1]:8090", true),
        ("http://www.cmpassport.com", false), ("http://10.0.0.1", false), ("http://128.0.0.1", false),
        ("https://www.cmpassport.com?x=1", false), ("ftp://www.cmpassport.com", false), ("www.cmpassport.com", false),
    ])
    func baseURLs(url: String, valid: Bool) {
        let yaml = """
            providers: {cmcc: {baseURLs: ["\(url)"]}}
            """
        let found = problems(yaml)
        #expect(found.isEmpty == valid, "\(url): \(found)")
        if !valid { #expect(found.map(\.path) == ["providers.cmcc.baseURLs[0]"]) }
    }

    @Test("the http refusal says why")
    func httpRefusalExplains() {
        let message = problems("providers: {cmcc: {baseURLs: [\"http://carrier.example\"]}}").first?.message ?? ""
        #expect(message.contains("in clear text") && message.contains("loopback"))
    }

    @Test("provider settings: required base URLs, timeouts, CA file and proxy")
    func providerSettings() throws {
        #expect(problems("providers: {cmcc: {}}").map(\.path) == ["providers.cmcc.baseURLs"])
        #expect(problems("providers: {cmcc: {baseURLs: []}}").map(\.path) == ["providers.cmcc.baseURLs"])
        #expect(problems("providers: {cmcc: {}}\nsandbox: {enabled: true}").isEmpty)
        let base = "baseURLs: [\"https://www.cmpassport.com\"]"
        #expect(problems("providers: {cmcc: {\(base), connectTimeoutMs: 49}}").map(\.path) == ["providers.cmcc.connectTimeoutMs"])
        #expect(problems("providers: {cmcc: {\(base), timeoutMs: 120001}}").map(\.path) == ["providers.cmcc.timeoutMs"])
        let inverted = problems("providers: {cmcc: {\(base), connectTimeoutMs: 2000, timeoutMs: 1500}}")
        #expect(inverted.map(\.path) == ["providers.cmcc.timeoutMs"])
        #expect(inverted.first?.message.contains("must be greater than connectTimeoutMs (2000)") == true)
        #expect(problems("providers: {cmcc: {\(base), caFile: /nonexistent/ca.pem}}").map(\.path) == ["providers.cmcc.caFile"])
        #expect(problems("providers: {cmcc: {\(base), proxy: \"not a url\"}}").map(\.path) == ["providers.cmcc.proxy"])
        #expect(problems("providers: {cmcc: {\(base), proxy: \"ftp://proxy:21\"}}").map(\.path) == ["providers.cmcc.proxy"])
        #expect(problems("providers: {cmcc: {\(base), bogus: 1}, cucc: {}}").map(\.path) == ["providers.cmcc.bogus", "providers.cucc"])
        try TestFiles.withTemporaryDirectory { directory in
            try TestFiles.write("not a certificate", to: "\(directory)/ca.pem")
            #expect(problems("providers: {cmcc: {\(base), caFile: ca.pem}}", baseDirectory: directory).first?.message.contains("no PEM certificate") == true)
        }
    }

    @Test("app rules: appId shape, required credentials per mode, providers")
    func appRules() {
        let provider = "providers: {cmcc: {baseURLs: [\"https://www.cmpassport.com\"]}}\n"
        let spaced = problems(provider + "apps: [{appId: \"300011111111 \", signMode: md5, secret: \"env:APP_SECRET\"}]", environment: Minimal.environment)
        #expect(spaced.map(\.path) == ["apps[0].appId"])
        #expect(spaced.first?.message.contains("103119") == true)
        #expect(problems(provider + "apps: [{appId: \"3000-1111\", signMode: md5, secret: \"env:APP_SECRET\"}]", environment: Minimal.environment).map(\.path) == ["apps[0].appId"])
        #expect(problems(provider + "apps: [{signMode: md5, secret: \"env:APP_SECRET\"}]", environment: Minimal.environment).map(\.path) == ["apps[0].appId"])
        #expect(problems(provider + "apps: [{appId: \"300011111111\"}]").map(\.path) == ["apps[0].signMode"])
        #expect(problems(provider + "apps: [{appId: \"300011111111\", signMode: md5}]").map(\.path) == ["apps[0].secret"])
        #expect(problems(provider + "apps: [{appId: \"300011111111\", signMode: rsa}]").map(\.path) == ["apps[0].privateKey"])
        #expect(problems(provider + "apps: [{appId: \"300011111111\", signMode: sha1, secrte: x}]").map(\.path) == ["apps[0].secrte", "apps[0].signMode"])
        #expect(problems(provider + "apps: [300011111111]").map(\.path) == ["apps[0]"])
        #expect(problems(provider + "apps: {appId: x}").map(\.path) == ["apps"])
        let unknown = problems(provider + "apps: [{appId: \"300011111111\", provider: cucc, signMode: md5, secret: \"env:APP_SECRET\"}]", environment: Minimal.environment)
        #expect(unknown.map(\.message) == ["apps[0].provider: unknown provider 'cucc'; supported: \(ProviderRegistry.testing.ids.joined(separator: ", "))"])
        let unconfigured = problems("apps: [{appId: \"300011111111\", signMode: md5, secret: \"env:APP_SECRET\"}]", environment: Minimal.environment)
        #expect(unconfigured.map(\.path) == ["apps[0].provider"])
        #expect(unconfigured.first?.message.contains("add providers.cmcc") == true)
    }

    @Test("a jverification app: every missing or wrong field named; another provider's key refused; a Passgate-style appId accepted")
    func jverificationAppRules() throws {
        let provider = "providers: {jverification: {baseURLs: [\"https://api.verification.jpush.cn\"]}}\n"
        func paths(_ app: String) -> [String] { problems(provider + "apps: [{appId: jg-shop, provider: jverification\(app)}]", environment: Minimal.environment).map(\.path) }
        #expect(paths("") == ["apps[0].appKey", "apps[0].secret"])
        #expect(paths(", appKey: \"env:APP_SECRET\"") == ["apps[0].secret"])
        #expect(paths(", appKey: \"env:APP_SECRET\", secret: \"env:APP_SECRET\", apiVersion: 3") == ["apps[0].apiVersion"])
        #expect(paths(", appKey: \"env:APP_SECRET\", secret: \"env:APP_SECRET\", signMode: md5") == ["apps[0].signMode"])
        #expect(paths(", appKey: \"env:APP_SECRET\", secret: \"env:APP_SECRET\", privateKey: \"file:/nonexistent.pem\"") == ["apps[0].privateKey"])
        let message = problems(provider + "apps: [{appId: jg-shop, provider: jverification}]", environment: Minimal.environment).first?.message ?? ""
        #expect(message.contains("JiGuang console"), "\(message)")
        let yaml = provider + "apps: [{appId: jg-shop, provider: jverification, appKey: \"env:APP_SECRET\", secret: \"env:APP_SECRET\", apiVersion: 2}]"
        let configuration = try ConfigurationLoader.testing(environment: Minimal.environment).load(yaml: yaml, baseDirectory: "/")
        let app = try #require(configuration.app("jg-shop")?.settings as? JVerificationApp)
        #expect(app.apiVersion == 2 && app.privateKey == nil && app.masterSecret == Minimal.environment["APP_SECRET"])
    }

    @Test("a shanyan app: a missing appKey, a wrong signCase and another provider's key are named; the appId is Shanyan's")
    func shanyanAppRules() throws {
        let provider = "providers: {shanyan: {baseURLs: [\"https://wsflash.253.com\"]}}\n"
        func paths(_ app: String) -> [String] { problems(provider + "apps: [{appId: a1b2c3d4, provider: shanyan\(app)}]", environment: Minimal.environment).map(\.path) }
        #expect(paths("") == ["apps[0].appKey"])
        #expect(paths(", appKey: \"env:APP_SECRET\", signCase: mixed") == ["apps[0].signCase"])
        #expect(paths(", appKey: \"env:APP_SECRET\", apiVersion: 2") == ["apps[0].apiVersion"])
        let yaml = provider + "apps: [{appId: a1b2c3d4, provider: shanyan, appKey: \"env:APP_SECRET\", signCase: UPPER}]"
        let app = try #require(try ConfigurationLoader.testing(environment: Minimal.environment).load(yaml: yaml, baseDirectory: "/").app("a1b2c3d4")?.settings as? ShanyanApp)
        #expect(app.signCase == .upper && app.privateKey == nil && app.appKey == Minimal.environment["APP_SECRET"])
    }

    @Test("an aliyun app: missing accessKeyId and secret named, a region outside the list refused")
    func aliyunAppRules() throws {
        let provider = "providers: {aliyun: {baseURLs: [\"https://dypnsapi.aliyuncs.com\"]}}\n"
        func paths(_ app: String) -> [String] { problems(provider + "apps: [{appId: ali-shop, provider: aliyun\(app)}]", environment: Minimal.environment).map(\.path) }
        #expect(paths("") == ["apps[0].accessKeyId", "apps[0].secret"])
        #expect(paths(", accessKeyId: \"env:APP_SECRET\", secret: \"env:APP_SECRET\", regionId: us-east-1") == ["apps[0].regionId"])
        let yaml = provider + "apps: [{appId: ali-shop, provider: aliyun, accessKeyId: \"env:APP_SECRET\", secret: \"env:APP_SECRET\"}]"
        let app = try #require(try ConfigurationLoader.testing(environment: Minimal.environment).load(yaml: yaml, baseDirectory: "/").app("ali-shop")?.settings as? AliyunApp)
        #expect(app.regionId == "cn-hangzhou")
    }

    @Test("client rules: ids, key hashes, grants and rates")
    func clientRules() {
        let prefix = Minimal.yaml().components(separatedBy: "clients:").first ?? ""
        func check(_ clients: String) -> [String] {
            problems(prefix + "clients:\n" + clients, environment: Minimal.environment).map(\.path)
        }
        let hash = Minimal.keyHash
        let other = String(repeating: "ab", count: 32)
        #expect(check("  - {id: a, apiKeySHA256: \"\(hash)\", apps: [\"300011111111\"], ratePerSecond: 0}") == ["clients[0].ratePerSecond"])
        #expect(check("  - {id: a, apiKeySHA256: \"\(hash)\", apps: []}") == ["clients[0].apps"])
        #expect(check("  - {id: a, apiKeySHA256: \"\(hash)\"}") == ["clients[0].apps"])
        #expect(check("  - {apiKeySHA256: \"\(hash)\", apps: [\"300011111111\"]}") == ["clients[0].id"])
        #expect(check("  - {id: \"shop backend\", apiKeySHA256: \"\(hash)\", apps: [\"300011111111\"]}") == ["clients[0].id"])
        #expect(check("""
              - {id: a, apiKeySHA256: "\(hash)", apps: ["300011111111"]}
              - {id: a, apiKeySHA256: "\(hash.uppercased())", apps: ["300011111111"]}
              - {id: b, apiKeySHA256: "\(other)", apps: ["300011111111"]}
            """) == ["clients[1].id", "clients[1].apiKeySHA256"])
        #expect(check("  - {id: a, apiKeySHA256: \"\(hash.dropLast())\", apps: [\"300011111111\"]}") == ["clients[0].apiKeySHA256"])
        #expect(check("  - {id: a, apiKeySHA256: \"\(hash)  -\", apps: [\"300011111111\"]}") == ["clients[0].apiKeySHA256"])
        #expect(check("  - {id: a, apiKeySHA256: \"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\", apps: [\"300011111111\"]}") == ["clients[0].apiKeySHA256"])
        let messages = problems(prefix + "clients:\n  - {id: a, apiKeySHA256: \"\(hash.dropLast())\", apps: [\"300011111111\"]}", environment: Minimal.environment)
        #expect(messages.first?.message.contains("has 63 hex characters; a SHA-256 has 64") == true)
    }

    @Test("sandbox.fault: the faults the sandbox's composer passes, or none; a wrong one lists them")
    func sandboxFaults() throws {
        let loader = ConfigurationLoader.testing(environment: Minimal.environment, sandboxFaults: ["html", "noAnswer"])
        #expect(try loader.load(yaml: Minimal.yaml(sandbox: "fault: NOANSWER"), baseDirectory: "/").sandbox.fault == "noAnswer")
        #expect(try loader.load(yaml: Minimal.yaml(sandbox: "fault: none"), baseDirectory: "/").sandbox.fault == nil)
        #expect(throws: ConfigurationError.self) { try loader.load(yaml: Minimal.yaml(sandbox: "fault: http500"), baseDirectory: "/") }
        do {
            _ = try ConfigurationLoader.testing(environment: Minimal.environment).load(yaml: Minimal.yaml(sandbox: "fault: html"), baseDirectory: "/")
            Issue.record("a loader given no faults accepted one")
        } catch {
            #expect(error.problems.map(\.path) == ["sandbox.fault"])
            #expect(error.problems.first?.message.contains("must be one of none, got 'html'") == true, "\(error.problems)")
        }
    }

    @Test("sandbox.host: loopback addresses only, from the file or PASSGATE_SANDBOX_HOST; any other is named with the rule")
    func sandboxHostIsLoopback() throws {
        for host in ["127.0.0.1", "127.8.9.10", "\"::1\"", "localhost", "LocalHost"] {
            let configuration = try ConfigurationLoader.testing(environment: Minimal.environment).load(yaml: Minimal.yaml(sandbox: "host: \(host)"), baseDirectory: "/")
            #expect(SandboxSettings.isAllowedHost(configuration.sandbox.host), "\(host)")
        }
        for host in ["0.0.0.0", "\"::\"", "10.0.0.5", "192.168.1.2", "passgate.example.com", "128.0.0.1", "127.0.0.256"] {
            let found = problems(Minimal.yaml(sandbox: "enabled: true, host: \(host)"), environment: Minimal.environment)
            #expect(found.map(\.path) == ["sandbox.host"], "\(host): \(found)")
            #expect(found.first?.message.contains("must be a loopback address (127.0.0.0/8, ::1 or localhost)") == true, "\(found)")
        }
        let fromEnvironment = problems(Minimal.yaml(), environment: Minimal.environment.merging(["PASSGATE_SANDBOX_HOST": "0.0.0.0"]) { $1 })
        #expect(fromEnvironment.map(\.path) == ["sandbox.host"] && fromEnvironment.first?.message.contains("PASSGATE_SANDBOX_HOST") == true, "\(fromEnvironment)")
    }

    @Test("the sandbox may not share the API's port")
    func sandboxPortClash() {
        #expect(problems("server: {port: 8090}\nsandbox: {enabled: true, port: 8090}").map(\.path) == ["sandbox.port"])
        #expect(problems("server: {port: 8090}\nsandbox: {enabled: false, port: 8090}").isEmpty)
    }
}
