/// Latencies in fixed buckets whose bounds grow by a quarter each (1 ms to about 80 s), so a
/// percentile read from it is within 25 % of the true value, and adding one costs an index.
public struct LatencyHistogram: Sendable, Equatable {
    /// Upper bounds in milliseconds; one more bucket holds everything above the last.
    public static let bounds: [Double] = {
        var bounds: [Double] = []
        var bound = 1.0
        while bound < 80_000 {
            bounds.append(bound)
            bound *= 1.25
        }
        return bounds
    }()

    public private(set) var counts = [Int](repeating: 0, count: LatencyHistogram.bounds.count + 1)
    public private(set) var total = 0

    public init() {}

    public mutating func record(_ milliseconds: Double) {
        counts[Self.bucket(of: milliseconds)] += 1
        total += 1
    }

    public mutating func add(_ other: LatencyHistogram) {
        for index in counts.indices { counts[index] += other.counts[index] }
        total += other.total
    }

    /// The upper bound of the bucket holding the `fraction` percentile (0.5, 0.99), nil when empty;
    /// above the last bound, that bound (the value is "more than" it).
    public func percentile(_ fraction: Double) -> Double? {
        guard total > 0 else { return nil }
        let rank = max(1, Int((fraction * Double(total)).rounded(.up)))
        var seen = 0
        for (index, count) in counts.enumerated() {
            seen += count
            if seen >= rank { return Self.bounds[min(index, Self.bounds.count - 1)] }
        }
        return Self.bounds.last
    }

    /// Binary search: the first bound at or above `milliseconds`.
    static func bucket(of milliseconds: Double) -> Int {
        var low = 0, high = bounds.count
        while low < high {
            let middle = (low + high) / 2
            if bounds[middle] < milliseconds { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
