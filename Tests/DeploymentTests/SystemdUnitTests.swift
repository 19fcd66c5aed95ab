import Foundation
import PassgateTestSupport
import Testing

/// `deploy/systemd/passgate.service`: hardened, stops within its budget, and finds the files the
/// shipped configuration names.
@Suite("systemd unit")
struct SystemdUnitTests {
    @Test("the unit parses as INI and turns every required hardening option on")
    func hardening() throws {
        let unit = try SystemdUnit.shipped()
        #expect(Set(unit.sections.keys) == ["Unit", "Service", "Install"])
        let user = unit.value("User")
        #expect(unit.value("DynamicUser") == "yes" || (user != nil && user != "root" && user != "0"), "run as a dedicated user")
        let required: [String: String] = [
            "NoNewPrivileges": "yes", "ProtectSystem": "strict", "ProtectHome": "yes", "PrivateTmp": "yes",
            "CapabilityBoundingSet": "", "KillSignal": "SIGTERM", "Restart": "on-failure",
        ]
        for (key, value) in required.sorted(by: { $0.key < $1.key }) {
            #expect(unit.value(key) == value, "\(key)=\(value) (found \(unit.value(key).map { "'\($0)'" } ?? "nothing"))")
        }
        let families = Set(unit.values("RestrictAddressFamilies").flatMap { $0.split(separator: " ").map(String.init) })
        #expect(families == ["AF_INET", "AF_INET6", "AF_UNIX"])
        #expect(unit.values("SystemCallFilter").first == "@system-service")
        #expect(unit.values("ExecReload").last == "/bin/kill -HUP $MAINPID")
        #expect(unit.value("WantedBy", in: "Install") == "multi-user.target")
    }

    @Test("ExecStart serves the shipped configuration path; TimeoutStopSec outlasts the drain and shutdown timeout")
    func startAndStop() throws {
        let unit = try SystemdUnit.shipped()
        let start = try #require(unit.value("ExecStart")).split(separator: " ").map(String.init)
        #expect(start.first?.hasSuffix("/passgate") == true)
        #expect(Array(start.dropFirst()) == ["serve", "--config", "/etc/passgate/passgate.yaml"])
        // The same path as in the container, so deploy/kubernetes/passgate.yaml installs unchanged.
        #expect(Array(start.dropFirst()) == (try Kubernetes.apiPod().container.strings("args")))

        let server = try Repository.configuration().map("server")
        let needed = try server.int("drainSeconds") + server.int("shutdownTimeoutSeconds")
        let stop = try #require(unit.value("TimeoutStopSec").flatMap { Int($0) }, "TimeoutStopSec in whole seconds")
        #expect(stop > needed, "TimeoutStopSec \(stop) must exceed drainSeconds + shutdownTimeoutSeconds = \(needed)")
        #expect(unit.value("RestartPreventExitStatus") == "78", "an invalid configuration (exit 78) must not restart in a loop")
    }

    @Test("the unit provides the secrets directory and the writable audit directory the configuration names")
    func paths() throws {
        let unit = try SystemdUnit.shipped()
        let binds = unit.values("BindReadOnlyPaths").flatMap { $0.split(separator: " ") }.map { $0.split(separator: ":").map(String.init) }
        #expect(binds.contains { $0.count >= 2 && $0[1] == ShippedConfiguration.secretsDirectory },
                "no BindReadOnlyPaths onto \(ShippedConfiguration.secretsDirectory), where file: secrets point")
        let audit = try Repository.configuration().map("audit").string("path")
        let auditDirectory = URL(fileURLWithPath: audit).deletingLastPathComponent().path
        let writable = unit.values("ReadWritePaths").flatMap { $0.split(separator: " ").map { String($0.drop { $0 == "-" }) } }
        #expect(writable.contains(auditDirectory), "ReadWritePaths must include \(auditDirectory) (audit.path) under ProtectSystem=strict")
        // systemd creates it, owned by User=, before ProtectSystem=strict makes the rest read-only.
        let created = [("/var/lib/", "StateDirectory"), ("/var/log/", "LogsDirectory")].flatMap { prefix, key in
            unit.values(key).flatMap { $0.split(separator: " ").map { prefix + $0 } }
        }
        #expect(created.contains(auditDirectory), "StateDirectory= or LogsDirectory= should create \(auditDirectory)")
        let example = try Repository.text("deploy/systemd/passgate.env.example")
        #expect(unit.values("EnvironmentFile").contains("-/etc/passgate/passgate.env"))
        #expect(!example.split(separator: "\n").contains { !$0.hasPrefix("#") && ($0.contains("KEY=") || $0.contains("SECRET=")) })
    }

    @Test("systemd-analyze verify accepts the unit without a warning; its security exposure is at most 2.0 of 10",
          .enabled(if: Binaries.find("systemd-analyze") != nil, "systemd-analyze is not installed (apt-get install systemd)"))
    func analyzeVerify() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("passgate-unit-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // verify checks that ExecStart's program exists: point it at the binary these tests built.
        let text = try Repository.text(SystemdUnit.path).replacingOccurrences(of: "/usr/local/bin/passgate", with: Binaries.passgate)
        let file = "\(directory)/passgate.service"
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let result = try await Subprocess.run(try #require(Binaries.find("systemd-analyze")), ["verify", file])
        #expect(result.status == 0, "systemd-analyze verify: \(result.stderrText)")
        // Unknown keys and unparsable values are only warnings, with exit 0: none may appear.
        let warnings = result.stderrText.split(separator: "\n").filter { $0.contains("passgate.service") }
        #expect(warnings.isEmpty, "systemd-analyze verify: \(warnings.joined(separator: "\n"))")

        // `security --offline` scores the sandboxing settings (0 best, 10 worst); the shipped unit
        // measured 1.5. The threshold is in tenths and fails the command when exceeded.
        let security = try await Subprocess.run(try #require(Binaries.find("systemd-analyze")), ["security", "--offline=yes", "--threshold=20", file])
        let verdict = security.stdoutText.split(separator: "\n").suffix(3).joined(separator: "\n")
        #expect(security.status == 0, "systemd-analyze security rates the unit above 2.0:\n\(verdict)")
    }
}
