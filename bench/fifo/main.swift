// The state store's write queue at steady state: `size` writes held, then one append and one pop
// per new write. Prints the slowest single pop (the old sliding queue moved every element behind
// its head at once from time to time) and the time for all of them.
//
//   swiftc -O Sources/DedicatedThreads/FIFO.swift bench/fifo/main.swift -o /tmp/fifo && /tmp/fifo
//   (an older FIFO: git show REV:Sources/DedicatedThreads/FIFO.swift > /tmp/FIFO.swift, then the same)

struct Written {
    let key: String
    let expiresAtMs: Int64
}

func measure(size: Int) -> (worst: Duration, total: Duration) {
    var queue = FIFO<Written>()
    let padding = "-0123456789abcdef0123456789abcdef0123456789abcdef"
    for index in 0..<size { queue.append(Written(key: "held\(index)\(padding)", expiresAtMs: Int64(index))) }
    let clock = ContinuousClock()
    var worst = Duration.zero
    let start = clock.now
    for index in 0..<(size + 10) {
        queue.append(Written(key: "new\(index)\(padding)", expiresAtMs: Int64(index)))
        let before = clock.now
        _ = queue.popFirst()
        worst = max(worst, clock.now - before)
    }
    return (worst, clock.now - start)
}

for size in [300_000, 3_000_000] {
    let result = measure(size: size)
    print("\(size) writes held: slowest pop \(result.worst), \(size + 10) appends and pops \(result.total)")
}
