import Foundation
import HTTPCore

/// An instant with the format and time zone it renders in (what `now`, `date` and
/// `parseDate` return).
package struct TemplateDate: Sendable, Hashable {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    package var milliseconds: Int64
    /// A Java `SimpleDateFormat` pattern, `epoch` (milliseconds) or `unix` (seconds); nil
    /// renders ISO 8601 (`2026-01-02T03:04:05Z`).
    package var format: String?
    /// A zone name or offset (`UTC`, `Europe/Paris`, `+02:00`); nil is UTC.
    package var timezone: String?

    /// Creates a date.
    package init(milliseconds: Int64, format: String? = nil, timezone: String? = nil) {
        self.milliseconds = milliseconds
        self.format = format
        self.timezone = timezone
    }

    /// The instants dates may hold: years 0001 to 9999 (as ISO 8601 writes them), with a
    /// margin for time zones.
    static let range: ClosedRange<Int64> = -62_135_596_800_000...253_402_300_799_999

    /// The instant, when it is in ``range``.
    static func inRange(_ milliseconds: Int64) -> Int64? { range.contains(milliseconds) ? milliseconds : nil }

    /// The rendered text.
    package var text: String {
        switch format {
        case "epoch": return String(milliseconds)
        case "unix": return String(milliseconds.floorDivided(by: 1000))
        case let pattern?:
            return JavaDateFormat(pattern).format(milliseconds, offsetSeconds: Self.offset(timezone, at: milliseconds))
        case nil:
            let offset = Self.offset(timezone, at: milliseconds)
            return JavaDateFormat(offset == 0 ? "yyyy-MM-dd'T'HH:mm:ss'Z'" : "yyyy-MM-dd'T'HH:mm:ssXXX").format(
                milliseconds, offsetSeconds: offset)
        }
    }

    /// The zone's offset from UTC at that instant, in seconds (0 for UTC or an unknown name).
    static func offset(_ zone: String?, at milliseconds: Int64) -> Int {
        guard let zone, !zone.isEmpty, zone != "UTC", zone != "GMT", zone != "Z" else { return 0 }
        if let fixed = fixedOffset(zone) { return fixed }
        guard let timeZone = TimeZone(identifier: zone) else { return 0 }
        return timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }

    /// Whether petmock knows the zone.
    static func isKnownZone(_ zone: String) -> Bool {
        zone == "UTC" || zone == "GMT" || zone == "Z" || fixedOffset(zone) != nil || TimeZone(identifier: zone) != nil
    }

    /// `+02:00`, `-0130`, `GMT+2`, `UTC-05:00`.
    static func fixedOffset(_ zone: String) -> Int? {
        var text = Substring(zone)
        if text.hasPrefix("GMT") || text.hasPrefix("UTC") { text = text.dropFirst(3) }
        guard let sign = text.first, sign == "+" || sign == "-" else { return nil }
        let digits = text.dropFirst().filter { $0 != ":" }
        guard !digits.isEmpty, digits.count <= 4, digits.allSatisfy(\.isASCII), let number = Int(digits) else {
            return nil
        }
        let (hours, minutes) = digits.count <= 2 ? (number, 0) : (number / 100, number % 100)
        guard hours <= 18, minutes < 60 else { return nil }
        return (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
    }

    /// The date moved by a WireMock offset such as `3 days`, `-1 hours`, `+2 months`.
    static func applying(offset: String, to milliseconds: Int64) -> Int64? {
        let parts = offset.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 2, let amount = Int(parts[0].hasPrefix("+") ? parts[0].dropFirst() : parts[0]),
            abs(amount) <= 1_000_000
        else { return nil }
        let unit = parts[1].lowercased()
        let second: Int64 = 1000
        switch unit.hasSuffix("s") ? String(unit.dropLast()) : unit {
        case "millisecond": return milliseconds + Int64(amount)
        case "second": return milliseconds + Int64(amount) * second
        case "minute": return milliseconds + Int64(amount) * 60 * second
        case "hour": return milliseconds + Int64(amount) * 3600 * second
        case "day": return milliseconds + Int64(amount) * 86400 * second
        case "week": return milliseconds + Int64(amount) * 7 * 86400 * second
        case "month", "year":
            var fields = CivilTime(milliseconds: milliseconds)
            let months = unit.hasPrefix("month") ? amount : amount * 12
            let total = fields.year * 12 + (fields.month - 1) + months
            fields.year = total.floorDivided(by: 12)
            fields.month = total - fields.year * 12 + 1
            fields.day = min(fields.day, CivilDate.daysIn(month: fields.month, year: fields.year))
            return fields.milliseconds
        default: return nil
        }
    }
}

/// A UTC calendar time, from and to milliseconds since the epoch (proleptic Gregorian, through
/// HTTPCore's ``CivilDate``).
struct CivilTime {
    var year: Int
    var month: Int
    var day: Int
    var hour = 0
    var minute = 0
    var second = 0
    var millisecond = 0

    init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    init(milliseconds: Int64) {
        let days = Int(milliseconds.floorDivided(by: 86_400_000))
        let rest = Int(milliseconds - Int64(days) * 86_400_000)
        let date = CivilDate(daysSinceEpoch: days)
        (year, month, day) = (date.year, date.month, date.day)
        hour = rest / 3_600_000
        minute = rest / 60000 % 60
        second = rest / 1000 % 60
        millisecond = rest % 1000
    }

    private var date: CivilDate { CivilDate(year: year, month: month, day: day) }

    var milliseconds: Int64 {
        Int64(date.daysSinceEpoch) * 86_400_000
            + Int64(hour * 3_600_000 + minute * 60000 + second * 1000 + millisecond)
    }

    /// 1 for Monday ... 7 for Sunday.
    var weekday: Int { date.weekday }

    var dayOfYear: Int { date.dayOfYear }
}
