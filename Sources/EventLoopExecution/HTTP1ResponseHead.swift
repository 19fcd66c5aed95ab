import HTTPTypes
import NIOCore
import NIOHTTP1

/// Writes an answer's status line and header section straight from its `HTTPResponse` into the
/// bytes that go on the wire, framed for an answer whose body is known whole.
///
/// The dispatch channel has the whole answer before it writes any of it, so the framing is always
/// a `Content-Length` (never chunked), and the head goes out in the same buffer as a small body. It
/// replaces NIO's `HTTPResponseEncoder` behind a conversion to `HTTPResponseHead`, which together
/// cost more instructions than the rest of the loop's write (bench/decisions/0017-http1-heads-as-bytes.md). Field
/// names and values come from Swift HTTP Types, which has already refused or blanked any byte that
/// could end a line, so they are written as they are.
enum HTTP1ResponseHead {
    /// What the channel adds to every answer.
    struct Additions {
        /// The `Date` header's value.
        var date: String
        /// The `Server` header's value; `nil`: the answer's own, if any.
        var server: String?
        /// `close` or `keep-alive` for the `Connection` header; `nil`: the answer's own, if any.
        var connection: StaticString?
    }

    /// Whether an answer with `status` has a body (and so a `Content-Length`): not 1xx, 204 or 304.
    static func hasBody(_ status: HTTPResponse.Status) -> Bool {
        status.code >= 200 && status.code != 204 && status.code != 304
    }

    /// Appends `HTTP/1.1 <code> <reason>`, the answer's fields and the additions, and the empty
    /// line to `buffer`. An answer that has a body gets `Content-Length: bodyLength` unless it
    /// names its own; one that has none loses any length; `Transfer-Encoding` is never written.
    static func write(
        _ answer: HTTPResponse, bodyLength: Int, additions: Additions, into buffer: inout ByteBuffer
    ) {
        // Measured first, then written in place in one ByteBuffer call: a ByteBuffer write per
        // piece costs a few hundred instructions each (capacity, uniqueness, exclusivity), and a
        // head is twenty-odd pieces.
        let length = String(bodyLength)  // a small string: no allocation
        var measure = Bytes(out: nil)
        emit(answer, length: length, additions: additions, to: &measure)
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: measure.count) { raw in
            var bytes = Bytes(out: raw.baseAddress)
            emit(answer, length: length, additions: additions, to: &bytes)
            return bytes.count
        }
    }

    private static func emit(_ answer: HTTPResponse, length: String, additions: Additions, to out: inout Bytes) {
        let status = answer.status
        out.put("HTTP/1.1 ")
        out.put(digit: status.code / 100 % 10)  // HTTP Types holds codes 100-999 only
        out.put(digit: status.code / 10 % 10)
        out.put(digit: status.code % 10)
        out.put(" ")
        // A status made from its code alone (as Hummingbird's errors make theirs) has no reason
        // phrase: the standard one, as NIO's encoder wrote it.
        out.put(status.reasonPhrase.isEmpty ? HTTPResponseStatus(statusCode: status.code).reasonPhrase : status.reasonPhrase)
        out.put("\r\n")
        let hasBody = hasBody(status)
        var namesLength = false
        for field in answer.headerFields {
            // The lowercased name against literals: comparing `HTTPField.Name`s builds each
            // static name first.
            switch field.name.canonicalName {
            case "transfer-encoding", "date":
                continue
            case "content-length":
                guard hasBody else { continue }
                namesLength = true
            case "server" where additions.server != nil, "connection" where additions.connection != nil:
                continue
            default:
                break
            }
            out.put(field.name.rawName)
            out.put(": ")
            out.put(field.value)
            out.put("\r\n")
        }
        out.put("Date: ")
        out.put(additions.date)
        out.put("\r\n")
        if let server = additions.server {
            out.put("Server: ")
            out.put(server)
            out.put("\r\n")
        }
        if hasBody, !namesLength {
            out.put("Content-Length: ")
            out.put(length)
            out.put("\r\n")
        }
        if let connection = additions.connection {
            out.put("Connection: ")
            out.put(connection)
            out.put("\r\n")
        }
        out.put("\r\n")
    }

    /// Counts bytes (`out` `nil`), or writes them at `out`, which has room for what was counted.
    private struct Bytes {
        let out: UnsafeMutableRawPointer?
        var count = 0

        mutating func put(_ bytes: UnsafeRawBufferPointer) {
            if let out, let base = bytes.baseAddress, bytes.count > 0 {
                (out + count).copyMemory(from: base, byteCount: bytes.count)
            }
            count += bytes.count
        }

        mutating func put(_ text: StaticString) {
            put(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        }

        mutating func put(_ text: String) {
            guard out != nil else {
                count += text.utf8.count  // stored with a native string: nothing is read
                return
            }
            var text = text  // native strings hand out their own storage: no copy
            text.withUTF8 { put(UnsafeRawBufferPointer($0)) }
        }

        mutating func put(digit: Int) {
            out?.storeBytes(of: UInt8(ascii: "0") + UInt8(digit), toByteOffset: count, as: UInt8.self)
            count += 1
        }
    }

    /// `HTTP/1.1 100 Continue` and the empty line: the interim answer to `Expect: 100-continue`.
    static func writeContinue(into buffer: inout ByteBuffer) {
        buffer.writeStaticString("HTTP/1.1 100 Continue\r\n\r\n")
    }
}
