import PassgateConfig
import PassgateTestSupport
import Testing

@Suite("provider resilience settings")
struct ProviderResilienceTests {
    @Test("maxConcurrentCalls, callQueueTimeoutMs, circuitFailureThreshold and circuitOpenMs default, load, and are range-checked")
    func resilienceKeys() throws {
        let defaults = try ConfigurationLoader.testing(environment: Minimal.environment).load(yaml: Minimal.yaml(), baseDirectory: "/")
        let cmcc = try #require(defaults.providers["cmcc"])
        #expect(cmcc.maxConcurrentCalls == 256 && cmcc.circuitFailureThreshold == 5 && cmcc.circuitOpenMs == 10_000)
        #expect(cmcc.callQueueTimeoutMs == 1000)

        let set = try ConfigurationLoader.testing(environment: Minimal.environment).load(
            yaml: Minimal.yaml(provider: "maxConcurrentCalls: 8, callQueueTimeoutMs: 0, circuitFailureThreshold: 2, circuitOpenMs: 1500"), baseDirectory: "/")
        let tuned = try #require(set.providers["cmcc"])
        #expect(tuned.maxConcurrentCalls == 8 && tuned.circuitFailureThreshold == 2 && tuned.circuitOpenMs == 1500)
        #expect(tuned.callQueueTimeoutMs == 0)

        let bad = problems(Minimal.yaml(provider: "maxConcurrentCalls: 0, callQueueTimeoutMs: 60001, circuitFailureThreshold: -1, circuitOpenMs: 5"), environment: Minimal.environment)
        for key in ["maxConcurrentCalls", "callQueueTimeoutMs", "circuitFailureThreshold", "circuitOpenMs"] {
            #expect(bad.contains { $0.path == "providers.cmcc.\(key)" }, "no problem for \(key): \(bad.map(\.message))")
        }
    }

    @Test("eventLoop defaults to epoll, accepts poll, and names the choices when wrong")
    func eventLoopKey() throws {
        let loader = ConfigurationLoader.testing(environment: Minimal.environment)
        #expect(try loader.load(yaml: Minimal.yaml(), baseDirectory: "/").providers["cmcc"]?.eventLoop == .epoll)
        #expect(try loader.load(yaml: Minimal.yaml(provider: "eventLoop: poll"), baseDirectory: "/").providers["cmcc"]?.eventLoop == .poll)
        let bad = problems(Minimal.yaml(provider: "eventLoop: select"), environment: Minimal.environment)
        let problem = try #require(bad.first { $0.path == "providers.cmcc.eventLoop" })
        #expect(problem.message.contains("epoll, poll") && problem.message.contains("select"), "\(problem.message)")
    }
}
