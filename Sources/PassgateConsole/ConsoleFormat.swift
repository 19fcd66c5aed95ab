/// Numbers as the console writes them, without Foundation's formatters.
public enum ConsoleFormat {
    /// `0.985` as `98.5 %`.
    public static func percent(_ ratio: Double) -> String {
        let tenths = Int((ratio * 1000).rounded())
        return "\(tenths / 10).\(tenths % 10) %"
    }

    /// A histogram bound as `≤ 120 ms` (`≤ 1.6 ms` below 10 ms), or `-` without calls.
    public static func latency(_ milliseconds: Double?) -> String {
        guard let milliseconds else { return "-" }
        if milliseconds < 10 {
            let tenths = Int((milliseconds * 10).rounded(.up))
            return "≤ \(tenths / 10).\(tenths % 10) ms"
        }
        return "≤ \(Int(milliseconds.rounded(.up))) ms"
    }
}
