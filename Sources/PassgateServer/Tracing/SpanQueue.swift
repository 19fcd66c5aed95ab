/// The exporter's bounded queue of ended spans, as a value: requests append, the export loop
/// takes batches. When it is full a span is dropped (and counted) rather than held: tracing
/// must never hold memory or time that requests need.
struct SpanQueue<Element> {
    let capacity: Int
    private(set) var elements: [Element] = []
    /// Dropped since the last `take`, for the metric.
    private(set) var droppedSinceTake = 0

    init(capacity: Int) {
        self.capacity = capacity
        elements.reserveCapacity(capacity)
    }

    enum AppendAction: Equatable {
        case queued
        case dropped
    }

    mutating func append(_ element: Element) -> AppendAction {
        guard elements.count < capacity else {
            droppedSinceTake += 1
            return .dropped
        }
        elements.append(element)
        return .queued
    }

    /// Up to `maximum` of the oldest spans, and how many were dropped since the last take.
    mutating func take(_ maximum: Int) -> (batch: [Element], dropped: Int) {
        let count = min(maximum, elements.count)
        let batch = Array(elements.prefix(count))
        elements.removeFirst(count)
        defer { droppedSinceTake = 0 }
        return (batch, droppedSinceTake)
    }

    var isEmpty: Bool { elements.isEmpty }
}
