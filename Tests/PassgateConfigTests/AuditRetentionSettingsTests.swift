import Foundation
import PassgateConfig
import PassgateTestSupport
import Testing

@Suite("audit: retention settings (maxFiles, maxAgeDays)")
struct AuditRetentionSettingsTests {
    @Test("without them: 10 rotated files kept, no age limit, at most (10 + 1) × 64 MiB on disk")
    func defaults() throws {
        let audit = try ConfigurationLoader.testing(environment: Minimal.environment).load(yaml: Minimal.yaml(), baseDirectory: "/srv").audit
        #expect(audit.maxFiles == 10 && audit.maxAgeDays == 0)
        #expect(audit.maxRetainedBytes == 11 * 67_108_864)
        #expect(audit.maxRetainedBytes! < 1 << 30, "the defaults fit the shipped 1 GiB volume")
    }

    @Test("both are read; 0 switches a limit off (maxRetainedBytes nil: no bound)")
    func readsBoth() throws {
        let loader = ConfigurationLoader.testing(environment: Minimal.environment)
        let set = try loader.load(yaml: Minimal.yaml() + "\naudit: {maxFiles: 3, maxAgeDays: 400, maxFileBytes: 4096}", baseDirectory: "/").audit
        #expect(set.maxFiles == 3 && set.maxAgeDays == 400 && set.maxRetainedBytes == 4 * 4096)
        let off = try loader.load(yaml: Minimal.yaml() + "\naudit:\n  maxFiles: 0\n  maxAgeDays: 0\n", baseDirectory: "/").audit
        #expect(off.maxFiles == 0 && off.maxAgeDays == 0 && off.maxRetainedBytes == nil)
        let empty = try loader.load(yaml: Minimal.yaml() + "\naudit: {maxFiles: ~, maxAgeDays: null}", baseDirectory: "/").audit
        #expect(empty.maxFiles == 10 && empty.maxAgeDays == 0, "an empty value counts as absent")
    }

    @Test("out-of-range and malformed values are problems at their key path and line", arguments: [
        ("maxFiles: -1", "audit.maxFiles", "must be an integer 0-100000"),
        ("maxFiles: 100001", "audit.maxFiles", "0 keeps every one"),
        ("maxFiles: ten", "audit.maxFiles", "got 'ten'"),
        ("maxFiles: [1]", "audit.maxFiles", "must be an integer"),
        ("maxAgeDays: -1", "audit.maxAgeDays", "must be an integer 0-36500"),
        ("maxAgeDays: 36501", "audit.maxAgeDays", "0 is no age limit"),
        ("maxAgeDays: 30d", "audit.maxAgeDays", "got '30d'"),
        ("maxfiles: 3", "audit.maxfiles", "did you mean 'maxFiles'?"),
        ("maxAge: 3", "audit.maxAge", "did you mean 'maxAgeDays'?"),
        ("keep: 3", "audit.keep", "known keys: enabled, path, maxFileBytes, fsyncIntervalMs, writeDelayMs, maxFiles, maxAgeDays"),
    ])
    func problemsAtPaths(entry: String, path: String, fragment: String) {
        let found = problems(Minimal.yaml() + "\naudit:\n  enabled: true\n  \(entry)\n", environment: Minimal.environment)
        #expect(found.map(\.path) == [path], "\(found)")
        #expect(found.first?.message.contains(fragment) == true, "\(found.first?.message ?? "")")
        #expect(found.first?.line == 12, "the line of the key in the file")
    }

    @Test("PASSGATE_AUDIT_MAXFILES and PASSGATE_AUDIT_MAXAGEDAYS override the file; a bad one names the variable")
    func environmentOverrides() throws {
        var environment = Minimal.environment
        environment.merge(["PASSGATE_AUDIT_MAXFILES": "0", "PASSGATE_AUDIT_MAXAGEDAYS": "90"]) { $1 }
        let yaml = Minimal.yaml() + "\naudit: {maxFiles: 5, maxAgeDays: 7}"
        let audit = try ConfigurationLoader.testing(environment: environment).load(yaml: yaml, baseDirectory: "/").audit
        #expect(audit.maxFiles == 0 && audit.maxAgeDays == 90)

        environment["PASSGATE_AUDIT_MAXFILES"] = "-3"
        environment["PASSGATE_AUDIT_MAXAGEDAYS"] = "a month"
        let found = problems(yaml, environment: environment)
        #expect(found.map(\.path).sorted() == ["audit.maxAgeDays", "audit.maxFiles"])
        #expect(found.contains { $0.message.contains("PASSGATE_AUDIT_MAXFILES") })
        #expect(found.contains { $0.message.contains("PASSGATE_AUDIT_MAXAGEDAYS") })
    }

    @Test("passgate usage's audit-only loading reads them too, and reports their problems with the line")
    func auditOnlyLoading() throws {
        try TestFiles.withTemporaryDirectory { directory in
            let path = "\(directory)/passgate.yaml"
            try TestFiles.write("apps:\n  - {appId: \"1\", signMode: md5, secret: \"env:UNSET\"}\naudit:\n  maxFiles: 4\n  maxAgeDays: 30\n", to: path)
            let settings = try ConfigurationLoader.testing(environment: [:]).loadAuditSettings(path: path)
            #expect(settings.maxFiles == 4 && settings.maxAgeDays == 30)
            try TestFiles.write("audit:\n  maxAgeDays: -2\n", to: path)
            do throws(ConfigurationError) {
                _ = try ConfigurationLoader.testing(environment: [:]).loadAuditSettings(path: path)
                Issue.record("maxAgeDays -2 must be refused")
            } catch {
                #expect(error.problems.map(\.path) == ["audit.maxAgeDays"] && error.problems.first?.line == 2)
            }
        }
    }

    @Test("the production configuration sets the defaults explicitly, so operators see them")
    func productionExample() throws {
        let production = try ConfigurationLoader.testing(environment: [:]).loadAuditSettings(path: "\(TestFiles.packageRoot)/deploy/kubernetes/passgate.yaml")
        #expect(production.maxFiles == 10 && production.maxAgeDays == 0)
        let text = try TestFiles.shipped("deploy/kubernetes/passgate.yaml")
        #expect(text.contains("maxFiles:") && text.contains("maxAgeDays:"))
    }
}
