/// A day of the proleptic Gregorian calendar and its count of days from 1970-01-01, both ways:
/// petkit's one civil-date algorithm (the `Date` header, journal timestamps, date matching and
/// templating all use it). Howard Hinnant's `days_from_civil` and `civil_from_days`, by eras
/// of 400 years, so exact for negative years too (year 0 is 1 BC, a leap year).
package struct CivilDate: Sendable, Hashable {
    /// The year (0 is 1 BC, -1 is 2 BC).
    package var year: Int
    /// The month, 1...12.
    package var month: Int
    /// The day of the month, 1...31.
    package var day: Int

    /// A date from its fields (not checked; see ``isValid``).
    package init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// The date `days` after 1970-01-01 (before it when negative).
    package init(daysSinceEpoch days: Int) {
        let shifted = days + 719_468
        let era = shifted.floorDivided(by: 146_097)
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// Days from 1970-01-01 to this date (negative before it).
    package var daysSinceEpoch: Int {
        let marchYear = month <= 2 ? year - 1 : year
        let era = marchYear.floorDivided(by: 400)
        let yearOfEra = marchYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The ISO 8601 day of the week: 1 for Monday ... 7 for Sunday.
    package var weekday: Int { Self.weekday(daysSinceEpoch: daysSinceEpoch) }

    /// The day of the year, 1...366.
    package var dayOfYear: Int { daysSinceEpoch - CivilDate(year: year, month: 1, day: 1).daysSinceEpoch + 1 }

    /// Whether the month is 1...12 and the day is in that month.
    package var isValid: Bool {
        (1...12).contains(month) && day >= 1 && day <= Self.daysIn(month: month, year: year)
    }

    /// The ISO 8601 day of the week of a day count: 1 for Monday ... 7 for Sunday (1970-01-01
    /// was a Thursday).
    package static func weekday(daysSinceEpoch days: Int) -> Int { (days + 3).floorModulo(7) + 1 }

    /// Whether the year has a 29 February.
    package static func isLeapYear(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    /// How many days the month has in that year.
    package static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}

extension BinaryInteger {
    /// Division rounding toward negative infinity (`-1 / 86_400` is -1, not 0).
    @inlinable
    package func floorDivided(by divisor: Self) -> Self {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }

    /// The remainder of ``floorDivided(by:)``: with a positive divisor, always in `0..<divisor`.
    @inlinable
    package func floorModulo(_ divisor: Self) -> Self { self - floorDivided(by: divisor) * divisor }
}
