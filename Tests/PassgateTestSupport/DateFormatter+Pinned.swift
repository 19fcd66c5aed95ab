import Foundation

extension DateFormatter {
    /// A formatter whose output depends on nothing of the machine's: POSIX locale, Gregorian
    /// calendar, the zone named `zone` (an IANA identifier). The reference that hand-written date
    /// code is checked against.
    public static func pinned(_ pattern: String, zone: String) -> DateFormatter? {
        guard let timeZone = TimeZone(identifier: zone) else { return nil }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.calendar = Calendar(identifier: .gregorian)
        formatter.timeZone = timeZone
        formatter.dateFormat = pattern
        return formatter
    }
}
