@testable import CurlTransport
import CCurl
import Testing

/// ``CurlSocketTable``: which `epoll_ctl` each of curl's and epoll's events costs.
@Suite("Socket table")
struct CurlSocketTableTests {
    @Test("a connection socket curl stops watching while it waits for input stays registered; the next transfer on it changes nothing")
    func idleConnectionParks() {
        var table = CurlSocketTable()
        table.opened(7)
        #expect(table.watch(7, what: CURL_POLL_IN, shard: 0) == .add)
        #expect(table.unwatch(7) == .none)
        #expect(table.parkedCount == 1)
        #expect(table.watch(7, what: CURL_POLL_IN, shard: 0) == .none)
        #expect(table.parkedCount == 0)
        #expect(table.unwatch(7) == .none)
        #expect(table.watch(7, what: CURL_POLL_INOUT, shard: 0) == .modify)
        #expect(table.watch(7, what: CURL_POLL_IN, shard: 0) == .modify)
    }

    @Test("a socket watched for output, or one curl did not open for a connection, leaves the set when curl stops watching it")
    func othersLeave() {
        var table = CurlSocketTable()
        table.opened(7)
        #expect(table.watch(7, what: CURL_POLL_OUT, shard: 0) == .add)
        #expect(table.unwatch(7) == .remove)
        // A resolver's socket pair: never reported through the socket-open callback.
        #expect(table.watch(9, what: CURL_POLL_IN, shard: 0) == .add)
        #expect(table.unwatch(9) == .remove)
        #expect(table.unwatch(9) == .none)
        #expect(table.registeredCount == 0)
    }

    @Test("a parked socket that becomes readable leaves the set without curl being told; a watched one goes to curl")
    func readinessOfParked() {
        var table = CurlSocketTable()
        table.opened(7)
        table.opened(8)
        _ = table.watch(7, what: CURL_POLL_IN, shard: 1)
        _ = table.watch(8, what: CURL_POLL_IN, shard: 1)
        _ = table.unwatch(7)
        #expect(table.ready(8) == .none)
        #expect(table.ready(7) == .remove)
        #expect(table.ready(7) == .none)
        #expect(table.watch(7, what: CURL_POLL_IN, shard: 1) == .add)
    }

    @Test("a closed socket is forgotten, and a number reused for a new connection is added afresh whatever was recorded")
    func closeAndReuse() {
        var table = CurlSocketTable()
        table.opened(7)
        _ = table.watch(7, what: CURL_POLL_IN, shard: 0)
        _ = table.unwatch(7)
        table.closed(7)
        #expect(table.registeredCount == 0)
        // Closed and reused by something curl did not open for a connection: never parks.
        #expect(table.watch(7, what: CURL_POLL_IN, shard: 0) == .add)
        #expect(table.unwatch(7) == .remove)
        // Parked, then closed without the callback (not expected of curl) and reopened for a connection.
        table.opened(7)
        _ = table.watch(7, what: CURL_POLL_IN, shard: 2)
        _ = table.unwatch(7)
        table.opened(7)
        #expect(table.watch(7, what: CURL_POLL_IN, shard: 2) == .add)
    }

    @Test("another shard's socket under a number is a modification, and a failed change forgets the socket")
    func shardAndFailure() {
        var table = CurlSocketTable()
        #expect(table.watch(5, what: CURL_POLL_IN, shard: 0) == .add)
        #expect(table.watch(5, what: CURL_POLL_IN, shard: 3) == .modify)
        table.failed(5)
        #expect(table.registeredCount == 0)
        #expect(table.watch(5, what: CURL_POLL_IN, shard: 3) == .add)
    }
}
