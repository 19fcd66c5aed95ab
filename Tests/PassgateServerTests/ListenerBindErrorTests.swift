import Glibc
import NIOCore
import PassgateConfig
import PassgateServer
import PassgateTestSupport
import Testing

@Suite("A listener that cannot take its address")
struct ListenerBindErrorTests {
    @Test("each way binding fails is named with the listener, the address and the settings that chose it")
    func messages() throws {
        let inUse = try #require(ListenerBindError(IOError(errnoCode: EADDRINUSE, reason: "bind"), listener: "api", host: "0.0.0.0", port: 8080, section: "server"))
        #expect(inUse.description.hasPrefix("the api listener cannot listen on 0.0.0.0:8080 (server.host, server.port): the address is already in use"))
        let denied = try #require(ListenerBindError(IOError(errnoCode: EACCES, reason: "bind"), listener: "metrics", host: "::", port: 81, section: "metrics"))
        #expect(denied.description.contains("[::]:81 (metrics.host, metrics.port): permission denied"))
        let foreign = try #require(ListenerBindError(IOError(errnoCode: EADDRNOTAVAIL, reason: "bind"), listener: "admin", host: "10.9.9.9", port: 8081, section: "admin"))
        #expect(foreign.description.contains("not one of this machine's"))
        let unknown = try #require(ListenerBindError(SocketAddressError.unknown(host: "no-such-host.invalid", port: 8080), listener: "api", host: "no-such-host.invalid", port: 8080, section: "server"))
        #expect(unknown.description.contains("does not resolve"))
    }

    @Test("errors that are not about taking the address pass through unchanged")
    func otherErrorsAreNotRenamed() {
        #expect(ListenerBindError(IOError(errnoCode: ECONNRESET, reason: "read"), listener: "api", host: "127.0.0.1", port: 1, section: "server") == nil)
        #expect(ListenerBindError(CancellationError(), listener: "api", host: "127.0.0.1", port: 1, section: "server") == nil)
    }

    @Test("a taken API or metrics port stops the instance with the error naming that listener, and logs it", arguments: ["api", "metrics"])
    func takenPortStopsTheInstance(listener: String) async throws {
        let held = try HeldPort()
        var configuration = TestConfiguration.make(sandbox: false, baseURL: "http://127.0.0.1:9")
        if listener == "api" { configuration.server.port = held.port } else { configuration.metrics.port = held.port }
        let logs = MemoryLogSink()
        let error = await #expect(throws: ListenerBindError.self) {
            try await PassgateRuntime(configuration: configuration, logSink: logs).run()
        }
        let section = listener == "api" ? "server" : "metrics"
        #expect(error == ListenerBindError(
            IOError(errnoCode: EADDRINUSE, reason: "bind"), listener: listener, host: "127.0.0.1", port: held.port, section: section))
        #expect(logs.contents.contains { $0.contains(#""level":"critical""#) && $0.contains("\(section).port") && $0.contains(#""listener":"\#(listener)""#) })
    }
}
