import Foundation
import PassgateConfig
import PassgateTestSupport
import Testing

@Suite("audit: settings")
struct AuditSettingsTests {
    @Test("without an audit section the log is on, under .passgate/audit, 64 MiB files, fsync every second")
    func defaults() throws {
        let configuration = try ConfigurationLoader.testing(environment: Minimal.environment).load(yaml: Minimal.yaml(), baseDirectory: "/srv")
        #expect(configuration.audit.enabled)
        #expect(configuration.audit.path == "/srv/.passgate/audit/audit.jsonl")
        #expect(configuration.audit.directory == "/srv/.passgate/audit")
        #expect(configuration.audit.maxFileBytes == 67_108_864)
        #expect(configuration.audit.fsyncIntervalMs == 1000)
    }

    @Test("every key is read; a relative path resolves against the base directory, an absolute one stays")
    func readsEveryKey() throws {
        let relative = Minimal.yaml() + "\naudit: {enabled: off, path: logs/../audit/calls.jsonl, maxFileBytes: 4096, fsyncIntervalMs: 0}"
        let loaded = try ConfigurationLoader.testing(environment: Minimal.environment).load(yaml: relative, baseDirectory: "/srv/pg")
        #expect(loaded.audit.enabled == false)
        #expect(loaded.audit.path == "/srv/pg/audit/calls.jsonl")
        #expect(loaded.audit.maxFileBytes == 4096 && loaded.audit.fsyncIntervalMs == 0)
        let absolute = Minimal.yaml() + "\naudit: {path: /var/lib/passgate/audit/audit.jsonl}"
        #expect(try ConfigurationLoader.testing(environment: Minimal.environment).load(yaml: absolute, baseDirectory: "/srv").audit.path == "/var/lib/passgate/audit/audit.jsonl")
    }

    @Test("out-of-range and malformed values are problems at their key path", arguments: [
        ("maxFileBytes: 4095", "audit.maxFileBytes", "must be an integer 4096-"),
        ("maxFileBytes: 64MiB", "audit.maxFileBytes", "got '64MiB'"),
        ("fsyncIntervalMs: -1", "audit.fsyncIntervalMs", "0 fsyncs after every line"),
        ("fsyncIntervalMs: 60001", "audit.fsyncIntervalMs", "must be an integer 0-60000"),
        ("enabled: maybe", "audit.enabled", "must be true or false"),
        ("path: \"\"", "audit.path", "must not be empty"),
        ("path: /var/lib/passgate/audit/", "audit.path", "names a directory"),
        ("path: /var/log/passgate/audit.log", "audit.path", "must name a .jsonl file"),
        ("path: /var/log/passgate/.jsonl", "audit.path", "must name a .jsonl file"),
        ("maxFileByte: 4096", "audit.maxFileByte", "did you mean 'maxFileBytes'?"),
        ("fsyncInterval: 5", "audit.fsyncInterval", "did you mean 'fsyncIntervalMs'?"),
        ("rotate: daily", "audit.rotate", "known keys: enabled, path, maxFileBytes, fsyncIntervalMs"),
    ])
    func problemsAtPaths(entry: String, path: String, fragment: String) {
        let found = problems(Minimal.yaml() + "\naudit: {\(entry)}", environment: Minimal.environment)
        #expect(found.map(\.path) == [path], "\(found)")
        #expect(found.first?.message.contains(fragment) == true, "\(found.first?.message ?? "")")
        #expect(found.first?.line == 10, "the line of the key in the file")
    }

    @Test("audit must be a mapping")
    func sectionShape() {
        #expect(problems(Minimal.yaml() + "\naudit: [on]", environment: Minimal.environment).map(\.path) == ["audit"])
    }

    @Test("a path that is an existing directory is refused")
    func existingDirectory() throws {
        try TestFiles.withTemporaryDirectory { directory in
            try FileManager.default.createDirectory(atPath: "\(directory)/audit.jsonl", withIntermediateDirectories: false)
            let found = problems(Minimal.yaml() + "\naudit: {path: audit.jsonl}", environment: Minimal.environment, baseDirectory: directory)
            #expect(found.map(\.path) == ["audit.path"])
            #expect(found.first?.message.contains("is a directory") == true)
        }
    }

    @Test("PASSGATE_AUDIT_* overrides replace the file's values; a bad one names the variable")
    func environmentOverrides() throws {
        var environment = Minimal.environment
        environment.merge([
            "PASSGATE_AUDIT_ENABLED": "false", "PASSGATE_AUDIT_PATH": "/data/audit/a.jsonl",
            "PASSGATE_AUDIT_MAXFILEBYTES": "1048576", "PASSGATE_AUDIT_FSYNCINTERVALMS": "250",
        ]) { $1 }
        let yaml = Minimal.yaml() + "\naudit: {enabled: true, path: x.jsonl, maxFileBytes: 8192, fsyncIntervalMs: 0}"
        let audit = try ConfigurationLoader.testing(environment: environment).load(yaml: yaml, baseDirectory: "/").audit
        #expect(audit.enabled == false && audit.path == "/data/audit/a.jsonl" && audit.maxFileBytes == 1_048_576 && audit.fsyncIntervalMs == 250)

        environment["PASSGATE_AUDIT_MAXFILEBYTES"] = "1k"
        let found = problems(Minimal.yaml(), environment: environment)
        #expect(found.map(\.path) == ["audit.maxFileBytes"])
        #expect(found.first?.message.contains("PASSGATE_AUDIT_MAXFILEBYTES") == true)
    }

    @Test("the shipped configs set the documented paths: .passgate/audit for the checkout, /var/lib/passgate for production")
    func shippedConfigs() throws {
        let loader = ConfigurationLoader.testing(environment: [:])
        let local = try loader.loadAuditSettings(path: "\(TestFiles.packageRoot)/config/passgate.yaml")
        #expect(local.enabled && local.path == FileManager.default.currentDirectoryPath + "/.passgate/audit/audit.jsonl")
        #expect(local.maxFileBytes == 67_108_864 && local.fsyncIntervalMs == 1000)
        // The production configuration references secret files that do not exist here: only audit: is read.
        let production = try loader.loadAuditSettings(path: "\(TestFiles.packageRoot)/deploy/kubernetes/passgate.yaml")
        #expect(production.path == "/var/lib/passgate/audit/audit.jsonl" && production.enabled)
    }

    @Test("loadAuditSettings reports audit problems with their line, and names an unreadable file")
    func auditOnlyLoading() throws {
        try TestFiles.withTemporaryDirectory { directory in
            let path = "\(directory)/passgate.yaml"
            try TestFiles.write("apps:\n  - {appId: \"1\", signMode: md5, secret: \"env:UNSET\"}\naudit:\n  maxFileBytes: 10\n", to: path)
            let auditProblems = auditOnlyProblems(path)
            #expect(auditProblems.map(\.path) == ["audit.maxFileBytes"])
            #expect(auditProblems.first?.line == 4)
            #expect(auditOnlyProblems("\(directory)/missing.yaml").first?.message.contains("missing.yaml") == true)
        }
    }
}

/// What `loadAuditSettings` reports for the file at `path` (empty when it loaded).
private func auditOnlyProblems(_ path: String) -> [ConfigurationProblem] {
    do {
        _ = try ConfigurationLoader.testing(environment: [:]).loadAuditSettings(path: path)
        return []
    } catch {
        return error.problems
    }
}
