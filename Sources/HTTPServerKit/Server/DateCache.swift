import HTTPHandlerKit

/// The `Date` header line (RFC 9110 §6.6.1, IMF-fixdate), formatted once per second per loop.
struct DateCache {
    private(set) var line: [UInt8] = []
    private var second = -1

    /// Reformats the line when the second changed.
    mutating func update(epochSeconds: Int) {
        guard epochSeconds != second else { return }
        second = epochSeconds
        line = Array("Date: \(Self.imfFixdate(epochSeconds: epochSeconds))\r\n".utf8)
    }

    /// Formats seconds since the epoch as `Sun, 06 Nov 1994 08:49:37 GMT`.
    static func imfFixdate(epochSeconds: Int) -> String {
        let days = epochSeconds >= 0 ? epochSeconds / 86_400 : (epochSeconds - 86_399) / 86_400
        let secondsOfDay = epochSeconds - days * 86_400
        let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        // 1970-01-01 was a Thursday.
        let weekday = ((days % 7) + 11) % 7
        let (year, month, day) = civilDate(daysSinceEpoch: days)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let time = "\(two(secondsOfDay / 3600)):\(two(secondsOfDay / 60 % 60)):\(two(secondsOfDay % 60))"
        return "\(weekdays[weekday]), \(two(day)) \(months[month - 1]) \(year) \(time) GMT"
    }

    /// Year, month (1...12) and day (1...31) of a day count since 1970-01-01, in the proleptic
    /// Gregorian calendar (the days-from-civil inverse by eras of 400 years).
    static func civilDate(daysSinceEpoch: Int) -> (Int, Int, Int) {
        let shifted = daysSinceEpoch + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }
}
