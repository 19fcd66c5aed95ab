import PassgateCore
import Foundation
import FuzzSupport

// Fuzzes ParsedJSON.parse on raw bytes. Invariants: no crash or hang; the same answer twice and
// through the copying path; an error offset inside the input; a parsed value written back out
// (strings through JSONText) parses to the same value and writes out byte for byte the same; and
// whatever JSONSerialization accepts as a top-level object or array parses to the same kind.

/// The JSONSerialization cross-check. `PASSGATE_FUZZ_JSON_FOUNDATION=0` turns it off.
private let compareWithFoundation = fuzzSwitch("PASSGATE_FUZZ_JSON_FOUNDATION", default: true)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)
    let first = Result { () throws(JSONSyntaxError) in try ParsedJSON.parse(bytes) }
    let again = Result { () throws(JSONSyntaxError) in try ParsedJSON.parse(bytes) }
    Invariant.check(first == again, "two parses differ: \(first) vs \(again)")
    // A lazy map has no contiguous storage, so parse copies it first: same answer expected.
    let copied = Result { () throws(JSONSyntaxError) in try ParsedJSON.parse(bytes.lazy.map { $0 }) }
    Invariant.check(first == copied, "the copying path differs: \(first) vs \(copied)")

    switch first {
    case .failure(let error):
        Invariant.check((0...bytes.count).contains(error.offset), "error offset \(error.offset) outside \(bytes.count) bytes")
    case .success(let value):
        let written = write(value)
        guard let reread = try? ParsedJSON.parse(written) else {
            Invariant.fail("written form does not parse: \(hexString(written))")
        }
        Invariant.check(reread == value, "written form parses to another value: \(hexString(written))")
        Invariant.check(write(reread) == written, "writing is not stable: \(hexString(written))")
    }
    if compareWithFoundation { compareKinds(bytes, first) }
    return 0
}

/// If Foundation accepts a top-level object or array, so must ParsedJSON, with the same kind.
/// Documented strictness differences are skipped, not reported: ParsedJSON rejects a byte order
/// mark, encodings other than UTF-8 (Foundation guesses UTF-16/32 from NUL bytes), nesting past
/// 64 levels and unpaired surrogate escapes; Foundation allows all four.
private func compareKinds(_ bytes: [UInt8], _ parsed: Result<ParsedJSON, JSONSyntaxError>) {
    guard !bytes.starts(with: [0xEF, 0xBB, 0xBF]), !bytes.contains(0), String(validating: bytes, as: UTF8.self) != nil else { return }
    guard let foundation = try? JSONSerialization.jsonObject(with: Data(bytes)) else { return }
    let kind = foundation is [String: Any] ? "an object" : foundation is [Any] ? "an array" : "something else"
    switch parsed {
    case .success(let value):
        Invariant.check(value.kindDescription == kind, "Foundation reads \(kind), ParsedJSON \(value.kindDescription)")
    case .failure(let error):
        let known = ["nesting deeper", "unpaired surrogate"]
        if known.contains(where: { error.problem.contains($0) }) || followsTrailingComma(bytes, error.offset) { return }
        Invariant.fail("Foundation accepts \(kind), ParsedJSON: \(error)")
    }
}

/// Whether the error is at a `]` or `}` after a comma (and blanks): Foundation accepts trailing commas.
private func followsTrailingComma(_ bytes: [UInt8], _ offset: Int) -> Bool {
    guard offset < bytes.count, bytes[offset] == UInt8(ascii: "]") || bytes[offset] == UInt8(ascii: "}") else { return false }
    return bytes[..<offset].last { ![0x20, 0x0A, 0x0D, 0x09].contains($0) } == UInt8(ascii: ",")
}

/// The value as JSON text: strings and keys through JSONText (the writer Passgate uses), numbers
/// as their original text, no whitespace.
private func write(_ value: ParsedJSON) -> [UInt8] {
    var output: [UInt8] = []
    write(value, to: &output)
    return output
}

private func write(_ value: ParsedJSON, to output: inout [UInt8]) {
    switch value {
    case .string(let text): JSONText.appendQuoted(text, to: &output)
    case .number(let text): output.append(contentsOf: text.utf8)
    case .bool(let flag): output.append(contentsOf: (flag ? "true" : "false").utf8)
    case .null: output.append(contentsOf: "null".utf8)
    case .array(let elements):
        output.append(UInt8(ascii: "["))
        for (index, element) in elements.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            write(element, to: &output)
        }
        output.append(UInt8(ascii: "]"))
    case .object(let members):
        output.append(UInt8(ascii: "{"))
        for (index, member) in members.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            JSONText.appendQuoted(member.key, to: &output)
            output.append(UInt8(ascii: ":"))
            write(member.value, to: &output)
        }
        output.append(UInt8(ascii: "}"))
    }
}

/// The executable's entry point: libFuzzer's driver (see FuzzSupport's runFuzzer).
@_cdecl("FuzzJSON_main")
public func entryPoint(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, fuzzJSON)
}
