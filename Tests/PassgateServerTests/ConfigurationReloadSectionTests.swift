import PassgateCore
import ProviderCMCC
import Logging
import PassgateConfig
import Testing

@testable import PassgateServer

/// A reload either applies a changed section or lists it under `restartRequired`: never neither.
/// In-process against the reloader itself; the HTTP side is `ConfigurationReloadTests`.
@Suite("configuration reload: every section is applied or reported")
struct ConfigurationReloadSectionTests {
    /// One change per stored section of `PassgateConfiguration`, and where the reload must put it.
    static let changes: [String: (change: @Sendable (inout PassgateConfiguration) -> Void, expected: String)] = [
        "server": ({ $0.server.drainSeconds += 1 }, "restart:server"),
        "admin": ({ $0.admin.port += 1 }, "restart:admin"),
        "metrics": ({ $0.metrics.host = "0.0.0.0" }, "restart:metrics"),
        "log": ({ $0.log.level = .error }, "restart:log"),
        "state": ({ $0.state.replayTTLSeconds += 1 }, "restart:state"),
        "providers": ({ $0.providers[CMCC.providerID]?.timeoutMs += 1 }, "restart:providers"),
        "apps": ({ $0.apps.removeLast() }, "applied:apps"),
        "clients": ({ $0.clients.removeLast() }, "applied:clients"),
        "sandbox": ({ $0.sandbox.latencyMs += 1 }, "restart:sandbox"),
        "audit": ({ $0.audit.fsyncIntervalMs += 1 }, "restart:audit"),
        "tracing": ({ $0.tracing.samplingRatio = 0.5 }, "restart:tracing"),
    ]

    @Test("every stored section of the configuration has a case here (a new section must be classified)")
    func everySectionCovered() {
        // `registry` is not a section of the file: it is what the loader was built with; `secrets`
        // says where the sections' secrets came from.
        let sections = Mirror(reflecting: TestConfiguration.make()).children.compactMap(\.label).filter { $0 != "registry" && $0 != "secrets" }
        #expect(Set(sections) == Set(Self.changes.keys), "sections without a reload test: \(Set(sections).subtracting(Self.changes.keys))")
    }

    @Test("a change to each section is applied or reported as restart-required", arguments: changes.keys.sorted())
    func sectionIsClassified(section: String) async throws {
        let running = TestConfiguration.make()
        var next = running
        let (change, expected) = try #require(Self.changes[section])
        change(&next)
        let changed = next
        let live = LiveSettings(RequestSettings(configuration: running, generation: 1))
        let reloader = ConfigurationReloader(running: running, live: live, logger: Logger(label: "test"), load: { changed })
        let report = try await reloader.reload(trigger: "test")
        let placement = expected.split(separator: ":").map(String.init)
        if placement[0] == "applied" {
            #expect(report.applied == [placement[1]] && report.restartRequired.isEmpty && report.generation == 2, "\(report)")
        } else {
            #expect(report.restartRequired == [placement[1]] && report.applied.isEmpty && report.generation == 1, "\(report)")
        }
    }

    @Test("server.maxBodyBytes alone is applied; the rest of server needs a restart")
    func maxBodyBytes() async throws {
        let running = TestConfiguration.make()
        var next = running
        next.server.maxBodyBytes += 1
        let changed = next
        let reloader = ConfigurationReloader(
            running: running, live: LiveSettings(RequestSettings(configuration: running, generation: 1)), logger: Logger(label: "test"),
            load: { changed })
        let report = try await reloader.reload(trigger: "test")
        #expect(report.applied == ["server.maxBodyBytes"] && report.restartRequired.isEmpty)
    }

    @Test("an unchanged file applies nothing and reports nothing")
    func unchanged() async throws {
        let running = TestConfiguration.make()
        let reloader = ConfigurationReloader(
            running: running, live: LiveSettings(RequestSettings(configuration: running, generation: 1)), logger: Logger(label: "test"),
            load: { running })
        let report = try await reloader.reload(trigger: "test")
        #expect(report.applied.isEmpty && report.restartRequired.isEmpty && report.generation == 1)
    }
}
