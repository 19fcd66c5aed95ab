@testable import PassgateCore
import Foundation
import Testing

@Suite("DecimalText: fixed-point numbers written in place")
struct DecimalTextTests {
    @Test("exact decimals keep their zeros, trimmed ones drop them and the point")
    func examples() {
        #expect(DecimalText.string(scaled: 0, fractionDigits: 2, trimmed: false) == "0.00")
        #expect(DecimalText.string(scaled: 5, fractionDigits: 2, trimmed: false) == "0.05")
        #expect(DecimalText.string(scaled: 1_200_000, fractionDigits: 2, trimmed: false) == "12000.00")
        #expect(DecimalText.string(scaled: 1_500, fractionDigits: 3, trimmed: true) == "1.5")
        #expect(DecimalText.string(scaled: 1_000, fractionDigits: 3, trimmed: true) == "1")
        #expect(DecimalText.string(scaled: 0, fractionDigits: 3, trimmed: true) == "0")
        #expect(DecimalText.string(scaled: -500, fractionDigits: 3, trimmed: true) == "-0.5")
        #expect(DecimalText.string(scaled: -1_000, fractionDigits: 3, trimmed: true) == "-1")
        #expect(DecimalText.string(scaled: -7, fractionDigits: 2, trimmed: false) == "-0.07")
        #expect(DecimalText.string(scaled: 42, fractionDigits: 0, trimmed: false) == "42")
        #expect(DecimalText.string(scaled: .min, fractionDigits: 0, trimmed: false) == String(Int64.min))
        #expect(DecimalText.string(scaled: .max, fractionDigits: 9, trimmed: false) == "9223372036.854775807")
    }

    @Test("agrees with Foundation's %.*f over a sweep of values, both signs, every width")
    func agreesWithFoundation() {
        var generator = SystemRandomNumberGenerator()
        for digits in 0...6 {
            var power: Int64 = 1
            for _ in 0..<digits { power *= 10 }
            let samples: [Int64] = [0, 1, 9, 10, 99, 100, 101, 999_999, 1_000_000_007] + (0..<200).map { _ in Int64.random(in: -10_000_000...10_000_000, using: &generator) }
            for scaled in samples {
                let whole = scaled / power, fraction = (scaled % power).magnitude
                let sign = scaled < 0 ? "-" : ""
                let fractionText = String(format: "%0\(digits)llu", fraction)
                let exact = digits == 0 ? "\(scaled)" : "\(sign)\(whole.magnitude).\(fractionText)"
                #expect(DecimalText.string(scaled: scaled, fractionDigits: digits, trimmed: false) == exact)
                var trimmed = exact
                if digits > 0 {
                    while trimmed.hasSuffix("0") { trimmed.removeLast() }
                    if trimmed.hasSuffix(".") { trimmed.removeLast() }
                }
                #expect(DecimalText.string(scaled: scaled, fractionDigits: digits, trimmed: true) == trimmed)
            }
        }
    }

    @Test("JSON decimals: three places at most, shortest form, non-finite as 0")
    func jsonDecimal() {
        #expect(JSONObjectWriter.decimal(12.3456) == "12.346")
        #expect(JSONObjectWriter.decimal(0.1) == "0.1")
        #expect(JSONObjectWriter.decimal(7) == "7")
        #expect(JSONObjectWriter.decimal(-0.25) == "-0.25")
        #expect(JSONObjectWriter.decimal(.nan) == "0")
        #expect(JSONObjectWriter.decimal(.infinity) == "0")
    }
}
