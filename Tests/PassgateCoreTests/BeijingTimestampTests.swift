import PassgateTestSupport
import PassgateCore
import Foundation
import Testing

@Suite("Beijing timestamps")
struct BeijingTimestampTests {
    @Test(
        "known instants format as 17-digit Beijing time",
        arguments: [
            (Int64(0), "19700101080000000"),
            (Int64(1_551_151_122_617), "20190226111842617"),  // 2019-02-26T03:18:42.617Z
            (Int64(1_577_808_000_000), "20200101000000000"),  // 2019-12-31T16:00:00Z: Beijing is already in 2020
            (Int64(1_582_991_999_999), "20200229235959999"),  // leap day, last millisecond
            (Int64(1_609_430_399_000), "20201231235959000"),  // 2020-12-31T15:59:59Z: week-year 2021 would show with YYYY
            (Int64(-1), "19700101075959999"),
        ]
    )
    func knownInstants(milliseconds: Int64, expected: String) {
        #expect(BeijingTimestamp.string(milliseconds: milliseconds) == expected)
        #expect(BeijingTimestamp.parse(expected) == milliseconds)
    }

    @Test("random instants round-trip and agree with a Foundation formatter pinned to Asia/Shanghai")
    func agreesWithFoundation() throws {
        let formatter = try #require(DateFormatter.pinned("yyyyMMddHHmmssSSS", zone: "Asia/Shanghai"))
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            // 1992 onwards: Shanghai had daylight saving until 1991, which Beijing time for CMCC ignores.
            let ms = Int64.random(in: 700_000_000_000...4_000_000_000_000, using: &generator)
            let ours = BeijingTimestamp.string(milliseconds: ms)
            #expect(ours == formatter.string(from: Date(timeIntervalSince1970: Double(ms) / 1000)))
            #expect(BeijingTimestamp.parse(ours) == ms)
        }
    }

    // The process time zone is proven irrelevant by running `passgate` under TZ=UTC,
    // America/New_York and Asia/Shanghai (PassgateCLITests). Not here: setenv in a multithreaded
    // test process races with every thread reading the environment (it crashed Process.run).
    @Test("now() is the clock's instant in Beijing time")
    func nowUsesTheClock() {
        let clock = ManualClock(milliseconds: 1_551_151_122_617)
        #expect(BeijingTimestamp.now(clock) == "20190226111842617")
        clock.advance(milliseconds: 1_500)
        #expect(BeijingTimestamp.now(clock) == "20190226111844117")
    }

    @Test("malformed timestamps are rejected", arguments: ["", "2019022611184261", "201902261118426170", "2019022611184261x", "20190230111842617", "20191326111842617", "20190226241842617", "20190226116042617", "20190226111860617", "２０１９0226111842617"])
    func rejectsMalformed(text: String) {
        #expect(BeijingTimestamp.parse(text) == nil)
    }
}

@Suite("Message ids")
struct MessageIDTests {
    @Test("1,000 msgids are unique, 32 lowercase hex characters, UUID v4 shaped")
    func uniqueAndWellFormed() {
        let ids = (0..<1000).map { _ in MessageID.make() }
        #expect(Set(ids).count == 1000)
        for id in ids {
            #expect(id.count == 32)
            #expect(id.allSatisfy { "0123456789abcdef".contains($0) })
            #expect(Array(id)[12] == "4")
            #expect("89ab".contains(Array(id)[16]))
            #expect(MessageID.isWellFormed(id))
        }
    }

    @Test("msgid shape check accepts 1-36 alphanumerics and dashes only", arguments: [("a", true), ("bed1dc7f-6cd6-45b9-be90-06ae08040c93", true), (String(repeating: "a", count: 37), false), ("", false), ("ab cd", false), ("ab\"cd", false), ("ñ", false)])
    func shapeCheck(text: String, valid: Bool) {
        #expect(MessageID.isWellFormed(text) == valid)
    }
}
