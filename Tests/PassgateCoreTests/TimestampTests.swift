import Foundation
import PassgateCore
import PassgateTestSupport
import Testing

@Suite("HTTP dates")
struct HTTPDateTests {
    @Test(
        "known instants format as IMF-fixdate",
        arguments: [
            (Int64(784_111_777_000), "Sun, 06 Nov 1994 08:49:37 GMT"),  // RFC 9110's own example
            (Int64(0), "Thu, 01 Jan 1970 00:00:00 GMT"),
            (Int64(-1), "Wed, 31 Dec 1969 23:59:59 GMT"),
            (Int64(1_582_934_399_999), "Fri, 28 Feb 2020 23:59:59 GMT"),
            (Int64(1_582_934_400_000), "Sat, 29 Feb 2020 00:00:00 GMT"),
            (Int64(1_796_207_700_123), "Wed, 02 Dec 2026 10:35:00 GMT"),
        ]
    )
    func knownInstants(milliseconds: Int64, expected: String) {
        #expect(Timestamp.string(milliseconds: milliseconds, style: .httpDate) == expected)
        // An offset is for local styles; an HTTP date is always GMT.
        #expect(Timestamp.string(milliseconds: milliseconds, offsetMilliseconds: 28_800_000, style: .httpDate) == expected)
    }

    @Test("random instants agree with a Foundation formatter pinned to GMT")
    func agreesWithFoundation() throws {
        let formatter = try #require(DateFormatter.pinned("EEE, dd MMM yyyy HH:mm:ss 'GMT'", zone: "GMT"))
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let ms = Int64.random(in: 0...4_000_000_000_000, using: &generator)
            #expect(Timestamp.string(milliseconds: ms, style: .httpDate)
                == formatter.string(from: Date(timeIntervalSince1970: Double(ms / 1000))))
        }
    }
}
