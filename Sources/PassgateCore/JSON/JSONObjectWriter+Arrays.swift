extension JSONObjectWriter {
    /// `"key":["a","b"]`: a list of strings (an admin answer's section names, say).
    public mutating func add(_ key: String, strings: [String]) {
        var array: [UInt8] = [UInt8(ascii: "[")]
        for (index, text) in strings.enumerated() {
            if index > 0 { array.append(UInt8(ascii: ",")) }
            JSONText.appendQuoted(text, to: &array)
        }
        array.append(UInt8(ascii: "]"))
        add(key, json: array)
    }
}
