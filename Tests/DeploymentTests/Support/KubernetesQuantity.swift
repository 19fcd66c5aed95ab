/// Kubernetes resource quantities (`1Gi`, `512Mi`, `1G`, `750M`, `1073741824`) as bytes.
enum KubernetesQuantity {
    static let suffixes: [(String, Int)] = [
        ("Ki", 1 << 10), ("Mi", 1 << 20), ("Gi", 1 << 30), ("Ti", 1 << 40),
        ("k", 1_000), ("M", 1_000_000), ("G", 1_000_000_000), ("T", 1_000_000_000_000),
    ]

    /// The bytes `quantity` stands for; throws for a form these tests do not read (decimals, `e`).
    static func bytes(_ quantity: Any?, at path: String) throws -> Int {
        if let number = quantity as? Int { return number }
        guard let quantity else { throw Failure("\(path) is missing") }
        guard let text = quantity as? String else { throw Failure("\(path) is not a quantity: \(quantity)") }
        for (suffix, factor) in suffixes where text.hasSuffix(suffix) {
            if let number = Int(text.dropLast(suffix.count)) { return number * factor }
        }
        guard let number = Int(text) else { throw Failure("\(path): cannot read the quantity '\(text)' (write e.g. 1Gi)") }
        return number
    }
}
