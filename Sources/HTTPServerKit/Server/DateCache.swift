import HTTPCore

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
        let days = epochSeconds.floorDivided(by: 86_400)
        let secondsOfDay = epochSeconds - days * 86_400
        let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let date = CivilDate(daysSinceEpoch: days)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let time = "\(two(secondsOfDay / 3600)):\(two(secondsOfDay / 60 % 60)):\(two(secondsOfDay % 60))"
        let weekday = weekdays[CivilDate.weekday(daysSinceEpoch: days) - 1]
        return "\(weekday), \(two(date.day)) \(months[date.month - 1]) \(date.year) \(time) GMT"
    }
}
