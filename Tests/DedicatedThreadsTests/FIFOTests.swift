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

    @Test("a long run of appends and pops keeps the order as the ring wraps round and grows")
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

    @Test("holes and growth while the queue wraps round the end of its storage keep the order")
    func wrappedHolesAndGrowth() {
        var queue = FIFO<Int>()
        var model: [Int] = []
        var next = 0
        // Sixteen slots at first: move the head to slot 10, then fill past the end and grow.
        for _ in 0..<10 {
            queue.append(next)
            next += 1
            _ = queue.popFirst()
        }
        for _ in 0..<14 {
            queue.append(next)
            model.append(next)
            next += 1
        }
        // Holes on both sides of the wrap, one of them at the front.
        for hole in [model[0], model[7], model[12]] {
            #expect(queue.removeFirst(where: { $0 == hole }) == hole)
            model.removeAll { $0 == hole }
        }
        #expect(queue.first == model.first)
        for _ in 0..<40 {  // grows twice while wrapped
            queue.append(next)
            model.append(next)
            next += 1
        }
        #expect(queue.count == model.count)
        for expected in model.prefix(20) { #expect(queue.popFirst() == expected) }
        #expect(queue.removeAll() == Array(model.dropFirst(20)))
        #expect(queue.isEmpty && queue.popFirst() == nil && queue.first == nil)
        queue.append(-1)
        #expect(queue.popFirst() == -1 && queue.isEmpty)
    }

    @Test("removing the last element leaves an empty queue that takes new elements in order")
    func emptiedByRemoval() {
        var queue = FIFO<Int>()
        for value in 0..<5 { queue.append(value) }
        for value in [4, 0, 2, 1, 3] { #expect(queue.removeFirst(where: { $0 == value }) == value) }
        #expect(queue.isEmpty && queue.first == nil && queue.popFirst() == nil)
        for value in 10..<30 { queue.append(value) }
        #expect(queue.popFirst(upTo: 25) == Array(10..<30))
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
