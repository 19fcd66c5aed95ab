import Glibc
import NIOCore
import PassgateServer
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
        // What SwiftNIO throws when it resolves the host a listener binds (RFC 6761: .invalid never resolves).
        let resolution = #expect(throws: (any Error).self) { try SocketAddress.makeAddressResolvingHost("no-such-host.invalid", port: 8080) }
        let resolutionError = try #require(resolution)
        let unknown = try #require(ListenerBindError(resolutionError, listener: "api", host: "no-such-host.invalid", port: 8080, section: "server"))
        #expect(unknown.description.contains("no-such-host.invalid:8080 (server.host, server.port): the host name does not resolve"))
    }

    @Test("errors that are not about taking the address pass through unchanged")
    func otherErrorsAreNotRenamed() {
        #expect(ListenerBindError(IOError(errnoCode: ECONNRESET, reason: "read"), listener: "api", host: "127.0.0.1", port: 1, section: "server") == nil)
        #expect(ListenerBindError(CancellationError(), listener: "api", host: "127.0.0.1", port: 1, section: "server") == nil)
    }
}
