import PassgateConfig
import PassgateTestSupport
import Testing

@Suite("tracing: settings")
struct TracingSettingsTests {
    @Test("without a tracing section tracing is off, every trace sampled once on, exporting to a local collector")
    func defaults() throws {
        let tracing = try ConfigurationLoader.testing(environment: Minimal.environment).load(yaml: Minimal.yaml(), baseDirectory: "/srv").tracing
        #expect(tracing == TracingSettings())
        #expect(!tracing.enabled && tracing.endpoint == "http://127.0.0.1:4318" && tracing.samplingRatio == 1 && tracing.serviceName == "passgate")
    }

    @Test("every key is read; a trailing slash on the endpoint is dropped")
    func readsEveryKey() throws {
        let yaml = Minimal.yaml() + """

            tracing: {enabled: true, endpoint: "https://otel.example:4318/", samplingRatio: 0.1, serviceName: passgate-eu,
                      exportIntervalMs: 500, maxExportBatchSize: 64, maxQueueSize: 128, exportTimeoutMs: 2000}
            """
        let tracing = try ConfigurationLoader.testing(environment: Minimal.environment).load(yaml: yaml, baseDirectory: "/").tracing
        #expect(tracing.enabled && tracing.endpoint == "https://otel.example:4318" && tracing.samplingRatio == 0.1)
        #expect(tracing.serviceName == "passgate-eu" && tracing.exportIntervalMs == 500 && tracing.maxExportBatchSize == 64)
        #expect(tracing.maxQueueSize == 128 && tracing.exportTimeoutMs == 2000)
    }

    @Test("the environment overrides the file (PASSGATE_TRACING_<KEY>)")
    func environment() throws {
        let environment = Minimal.environment.merging([
            "PASSGATE_TRACING_ENABLED": "true", "PASSGATE_TRACING_ENDPOINT": "http://127.0.0.1:9999", "PASSGATE_TRACING_SAMPLINGRATIO": "0.25",
        ]) { $1 }
        let tracing = try ConfigurationLoader.testing(environment: environment).load(yaml: Minimal.yaml() + "\ntracing: {enabled: false}", baseDirectory: "/").tracing
        #expect(tracing.enabled && tracing.endpoint == "http://127.0.0.1:9999" && tracing.samplingRatio == 0.25)
    }

    @Test("bad values are problems at their key path", arguments: [
        ("samplingRatio: 1.5", "tracing.samplingRatio", "must be a number from 0 to 1"),
        ("samplingRatio: ten", "tracing.samplingRatio", "got 'ten'"),
        ("samplingRatio: nan", "tracing.samplingRatio", "must be a number from 0 to 1"),
        ("endpoint: 127.0.0.1:4318", "tracing.endpoint", "must be an absolute URL"),
        ("endpoint: \"ftp://collector\"", "tracing.endpoint", "must be an http(s) URL"),
        ("endpoint: \"http://user:pw@collector:4318\"", "tracing.endpoint", "must not contain credentials"),
        ("endpoint: \"http://collector:4318/?x=1\"", "tracing.endpoint", "must not have a query"),
        ("enabled: sometimes", "tracing.enabled", "must be true or false"),
        ("serviceName: \"\"", "tracing.serviceName", "must not be empty"),
        ("exportIntervalMs: 0", "tracing.exportIntervalMs", "must be an integer 10-600000"),
        ("maxQueueSize: 0", "tracing.maxQueueSize", "must be an integer 1-"),
        ("exportTimeoutMs: 5", "tracing.exportTimeoutMs", "must be an integer 100-"),
        ("{maxExportBatchSize: 100, maxQueueSize: 10}", "tracing.maxExportBatchSize", "larger than tracing.maxQueueSize"),
        ("sampleRatio: 0.1", "tracing.sampleRatio", "did you mean 'samplingRatio'?"),
    ])
    func problemsAtPaths(entry: String, path: String, fragment: String) {
        let section = entry.hasPrefix("{") ? entry : "{\(entry)}"
        let found = problems(Minimal.yaml() + "\ntracing: \(section)", environment: Minimal.environment)
        #expect(found.map(\.path) == [path], "\(found)")
        #expect(found.first?.message.contains(fragment) == true, "\(found.first?.message ?? "")")
    }
}
