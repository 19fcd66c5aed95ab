extension CurlEngine {
    /// A request accepted by ``CurlEngine/submit(_:)`` and not yet finished.
    struct Submission: Sendable {
        let id: UInt64
        let request: CurlHTTPClient.Request
        let continuation: CheckedContinuation<CurlHTTPClient.Response, any Error>
    }

    /// FIFO of submissions waiting for a transfer slot. Cancellation removes from the middle, so
    /// removed entries become holes that `popFirst` skips; the array is compacted as the head moves.
    struct SubmissionQueue {
        private var storage: [Submission?] = []
        private var head = 0
        private(set) var count = 0

        var isEmpty: Bool { count == 0 }

        mutating func append(_ submission: Submission) {
            storage.append(submission)
            count += 1
        }

        mutating func popFirst() -> Submission? {
            while head < storage.count {
                let next = storage[head]
                storage[head] = nil
                head += 1
                if let next {
                    count -= 1
                    compactIfNeeded()
                    return next
                }
            }
            return nil
        }

        mutating func remove(id: UInt64) -> Submission? {
            guard let index = storage[head...].firstIndex(where: { $0?.id == id }) else { return nil }
            let removed = storage[index]
            storage[index] = nil
            count -= 1
            return removed
        }

        mutating func removeAll() -> [Submission] {
            let all = storage[head...].compactMap { $0 }
            storage.removeAll()
            head = 0
            count = 0
            return all
        }

        private mutating func compactIfNeeded() {
            if count == 0 {
                storage.removeAll(keepingCapacity: true)
                head = 0
            } else if head > 1024 && head * 2 > storage.count {
                storage.removeFirst(head)
                head = 0
            }
        }
    }
}
