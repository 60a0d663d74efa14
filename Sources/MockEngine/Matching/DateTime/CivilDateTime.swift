import HTTPCore

/// A wall-clock date and time (proleptic Gregorian), with the UTC offset it was written with
/// when it had one: what the date-time matchers compare. Arithmetic is on whole days from
/// 1970-01-01 (HTTPCore's ``CivilDate``), so no calendar library or time zone database is
/// involved.
package struct CivilDateTime: Sendable, Hashable {
    var year: Int
    var month: Int
    var day: Int
    var hour = 0
    var minute = 0
    var second = 0
    package var nanosecond = 0
    /// Seconds east of UTC; nil for a local date-time (no zone written).
    package var offset: Int?

    /// The wall-clock time as seconds since 1970-01-01T00:00 (ignoring the offset).
    package var wallSeconds: Int64 {
        Int64(CivilDate(year: year, month: month, day: day).daysSinceEpoch) * 86_400
            + Int64(hour * 3600 + minute * 60 + second)
    }

    /// The instant, in nanoseconds since the epoch; a local date-time is read as UTC.
    var instantNanoseconds: Int64 { (wallSeconds - Int64(offset ?? 0)) &* 1_000_000_000 &+ Int64(nanosecond) }

    /// The wall-clock time in nanoseconds, ignoring the offset.
    var wallNanoseconds: Int64 { wallSeconds &* 1_000_000_000 &+ Int64(nanosecond) }

    /// Whether the fields name a real date and time.
    package var isValid: Bool {
        CivilDate(year: year, month: month, day: day).isValid && (0...23).contains(hour) && (0...59).contains(minute)
            && (0...60).contains(second) && abs(year) < 1_000_000
    }

    /// The UTC date-time of an instant in nanoseconds since the epoch.
    init(utcNanoseconds: Int64) {
        let seconds = utcNanoseconds.floorDivided(by: 1_000_000_000)
        let days = seconds.floorDivided(by: 86_400)
        let rest = Int(seconds - days * 86_400)
        let date = CivilDate(daysSinceEpoch: Int(days))
        (year, month, day) = (date.year, date.month, date.day)
        hour = rest / 3600
        minute = rest / 60 % 60
        second = rest % 60
        nanosecond = Int(utcNanoseconds - seconds * 1_000_000_000)
        offset = 0
    }

    init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0, offset: Int? = nil) {
        (self.year, self.month, self.day, self.hour, self.minute, self.second, self.offset) =
            (year, month, day, hour, minute, second, offset)
    }

    /// The same wall-clock fields moved by an amount of a unit, keeping the offset; months and
    /// years keep the day, cut to the month's last (Java's `plusMonths`).
    func adding(_ amount: Int, _ unit: DateTimeUnit) -> CivilDateTime {
        var result = self
        switch unit {
        case .seconds, .minutes, .hours, .days:
            let seconds = Int64(amount) * Int64(unit.seconds)
            let moved = CivilDateTime(utcNanoseconds: (wallSeconds + seconds) * 1_000_000_000 + Int64(nanosecond))
            (result.year, result.month, result.day, result.hour, result.minute, result.second) =
                (moved.year, moved.month, moved.day, moved.hour, moved.minute, moved.second)
        case .months, .years:
            let months = (year * 12 + month - 1) + (unit == .years ? amount * 12 : amount)
            result.year = months.floorDivided(by: 12)
            result.month = months - result.year * 12 + 1
            result.day = min(day, CivilDate.daysIn(month: result.month, year: result.year))
        }
        return result
    }
}

/// A unit of a date-time offset (WireMock's `expectedOffsetUnit` and `now +3 days`).
enum DateTimeUnit: String, Sendable, CaseIterable {
    case seconds, minutes, hours, days, months, years

    var seconds: Int {
        switch self {
        case .seconds: 1
        case .minutes: 60
        case .hours: 3600
        default: 86_400
        }
    }
}

extension DateTruncation {
    /// The date-time moved as the truncation says, in its own offset (seconds and finer zero).
    func apply(to value: CivilDateTime) -> CivilDateTime {
        var result = value
        let moved = apply(
            to: CivilDate(year: value.year, month: value.month, day: value.day), hour: value.hour, minute: value.minute)
        (result.year, result.month, result.day) = (moved.date.year, moved.date.month, moved.date.day)
        (result.hour, result.minute, result.second, result.nanosecond) = (moved.hour, moved.minute, 0, 0)
        return result
    }
}
