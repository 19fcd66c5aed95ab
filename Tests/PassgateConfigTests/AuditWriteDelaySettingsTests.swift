import Foundation
import PassgateConfig
import Testing

@Suite("audit: writeDelayMs")
struct AuditWriteDelaySettingsTests {
    @Test("default 5 ms; the file's value is read, 0 included; PASSGATE_AUDIT_WRITEDELAYMS overrides it")
    func readAndOverridden() throws {
        let loader = ConfigurationLoader(environment: Minimal.environment)
        #expect(try loader.load(yaml: Minimal.yaml(), baseDirectory: "/").audit.writeDelayMs == 5)
        #expect(try loader.load(yaml: Minimal.yaml() + "\naudit: {writeDelayMs: 0}", baseDirectory: "/").audit.writeDelayMs == 0)
        #expect(try loader.load(yaml: Minimal.yaml() + "\naudit: {writeDelayMs: 1000}", baseDirectory: "/").audit.writeDelayMs == 1000)
        var environment = Minimal.environment
        environment["PASSGATE_AUDIT_WRITEDELAYMS"] = "20"
        let overridden = try ConfigurationLoader(environment: environment).load(yaml: Minimal.yaml() + "\naudit: {writeDelayMs: 0}", baseDirectory: "/")
        #expect(overridden.audit.writeDelayMs == 20)
    }

    @Test("out of range or not a number: a problem at audit.writeDelayMs that says what the value does", arguments: [
        ("writeDelayMs: -1", "must be an integer 0-1000"),
        ("writeDelayMs: 1001", "0 writes each line as it comes"),
        ("writeDelayMs: 5ms", "got '5ms'"),
    ])
    func problemsAtPath(entry: String, fragment: String) {
        let found = problems(Minimal.yaml() + "\naudit:\n  enabled: true\n  \(entry)\n", environment: Minimal.environment)
        #expect(found.map(\.path) == ["audit.writeDelayMs"], "\(found)")
        #expect(found.first?.message.contains(fragment) == true, "\(found.first?.message ?? "")")
    }
}
