import EventLoopExecution
import Testing

@Suite("listener defaults")
struct ListenerDefaultsTests {
    @Test("without server.eventLoops: one event loop per core, at least one", arguments: [(0, 1), (1, 1), (2, 2), (3, 3), (64, 64)])
    func oneLoopPerCore(cores: Int, loops: Int) {
        #expect(ListenerDefaults.eventLoops(cores: cores) == loops)
    }

    @Test("without server.requestsOnEventLoop: 64 requests in flight per loop, capped at the setting's maximum",
          arguments: [(1, 64), (2, 128), (3, 192), (64, 4_096), (256, 4_096)])
    func requestsPerLoop(loops: Int, limit: Int) {
        #expect(ListenerDefaults.requestsOnEventLoop(loops: loops) == limit)
    }
}
