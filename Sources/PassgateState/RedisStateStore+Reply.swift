import CHiredis

/// A Redis reply copied out of hiredis's `redisReply` (which is freed right after), so it can
/// cross from a worker thread to the awaiting task.
enum RedisReply: Sendable, Equatable {
    case status(String)
    case error(String)
    case integer(Int64)
    case bulk([UInt8])
    case null
    case array([RedisReply])

    /// Copies `reply` and everything under it; the caller still frees it.
    init(copying reply: UnsafePointer<redisReply>) {
        let value = reply.pointee
        switch value.type {
        case REDIS_REPLY_STRING:
            self = .bulk(Self.bytes(value.str, value.len))
        case REDIS_REPLY_STATUS:
            self = .status(String(decoding: Self.bytes(value.str, value.len), as: UTF8.self))
        case REDIS_REPLY_ERROR:
            self = .error(String(decoding: Self.bytes(value.str, value.len), as: UTF8.self))
        case REDIS_REPLY_INTEGER:
            self = .integer(Int64(value.integer))
        case REDIS_REPLY_ARRAY:
            var elements: [RedisReply] = []
            if let children = value.element {
                elements.reserveCapacity(value.elements)
                for index in 0..<value.elements {
                    if let child = children[index] { elements.append(RedisReply(copying: child)) } else { elements.append(.null) }
                }
            }
            self = .array(elements)
        default:  // REDIS_REPLY_NIL, and anything a newer protocol might add
            self = .null
        }
    }

    private static func bytes(_ pointer: UnsafeMutablePointer<CChar>?, _ length: Int) -> [UInt8] {
        guard let pointer, length > 0 else { return [] }
        return Array(UnsafeRawBufferPointer(start: pointer, count: length))
    }

    /// What kind of reply this is, for error messages (never the content).
    var kindName: String {
        switch self {
        case .status: "status"
        case .error: "error"
        case .integer: "integer"
        case .bulk: "bulk string"
        case .null: "nil"
        case .array: "array"
        }
    }

    /// The error code of a Redis error reply (`WRONGTYPE`, `LOADING`, …): the first word only, so
    /// nothing from a key or value can reach a log.
    static func errorCode(_ message: String) -> String {
        String(message.prefix { !$0.isWhitespace }.prefix(32))
    }

    /// Error replies that mean "this server cannot serve now" rather than "we sent nonsense".
    static func isTransient(errorCode code: String) -> Bool {
        ["LOADING", "BUSY", "READONLY", "MASTERDOWN", "TRYAGAIN", "CLUSTERDOWN", "MISCONF", "NOREPLICAS"].contains(code)
    }
}
