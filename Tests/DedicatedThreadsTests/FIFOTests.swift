import DedicatedThreads
import Testing

@Suite("FIFO")
struct FIFOTests {
    @Test("elements come out in the order they went in; count and isEmpty follow")
    func order() {
        var queue = FIFO<Int>()
        #expect(queue.isEmpty && queue.popFirst() == nil)
        for value in 0..<5 { queue.append(value) }
        #expect(queue.count == 5 && !queue.isEmpty)
        #expect(queue.popFirst() == 0 && queue.popFirst() == 1)
        queue.append(5)
        #expect((0..<4).compactMap { _ in queue.popFirst() } == [2, 3, 4, 5])
        #expect(queue.isEmpty && queue.count == 0 && queue.popFirst() == nil)
    }

    @Test("removing from the middle leaves the others in order, and the hole is skipped")
    func removeFromTheMiddle() {
        var queue = FIFO<Int>()
        for value in 0..<6 { queue.append(value) }
        #expect(queue.removeFirst(where: { $0 == 3 }) == 3)
        #expect(queue.removeFirst(where: { $0 == 3 }) == nil)
        #expect(queue.removeFirst(where: { $0 == 0 }) == 0)
        #expect(queue.count == 4)
        #expect(queue.popFirst(upTo: 10) == [1, 2, 4, 5])
        #expect(queue.isEmpty)
    }

    @Test("popFirst(upTo:) takes at most that many; removeAll returns the rest in order and empties the queue")
    func batches() {
        var queue = FIFO<Int>()
        for value in 0..<7 { queue.append(value) }
        #expect(queue.popFirst(upTo: 3) == [0, 1, 2])
        #expect(queue.popFirst(upTo: 0) == [])
        _ = queue.removeFirst(where: { $0 == 5 })
        #expect(queue.removeAll() == [3, 4, 6])
        #expect(queue.isEmpty && queue.popFirst() == nil)
        queue.append(9)
        #expect(queue.popFirst() == 9)
    }

    @Test("a long run of appends and pops keeps the order across compactions")
    func longRun() {
        var queue = FIFO<Int>()
        var next = 0
        var expected = 0
        for round in 0..<50 {
            for _ in 0..<(100 + round) {
                queue.append(next)
                next += 1
            }
            for _ in 0..<100 {
                #expect(queue.popFirst() == expected)
                expected += 1
            }
        }
        #expect(queue.count == next - expected)
        #expect(queue.removeAll() == Array(expected..<next))
    }

    @Test("first shows the front element without taking it, past a hole at the front")
    func firstPeeks() {
        var queue = FIFO<Int>()
        #expect(queue.first == nil)
        for value in 0..<3 { queue.append(value) }
        #expect(queue.first == 0 && queue.count == 3)
        #expect(queue.removeFirst(where: { $0 == 0 }) == 0)
        #expect(queue.first == 1 && queue.popFirst() == 1)
        #expect(queue.first == 2 && queue.popFirst() == 2)
        #expect(queue.first == nil)
    }
}
