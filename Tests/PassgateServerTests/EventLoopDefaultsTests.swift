import Testing

@testable import PassgateServer

@Suite("event loops")
struct EventLoopDefaultsTests {
    @Test("without server.eventLoops: half the cores, at least one", arguments: [(1, 1), (2, 1), (3, 1), (4, 2), (8, 4), (64, 32)])
    func halfTheCores(cores: Int, loops: Int) {
        #expect(PassgateRuntime.defaultEventLoops(cores: cores) == loops)
    }
}
