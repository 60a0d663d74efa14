import Foundation
import Testing

@testable import HTTPCore

@Suite struct CivilDateTests {
    /// Known days, negative years and leap days included (year 0 is 1 BC).
    @Test(arguments: [
        (0, 1970, 1, 1, 4),
        (-1, 1969, 12, 31, 3),
        (59, 1970, 3, 1, 7),
        (10_957, 2000, 1, 1, 6),
        (11_016, 2000, 2, 29, 2),
        (-25_508, 1900, 3, 1, 4),
        (-141_427, 1582, 10, 15, 5),
        (-719_468, 0, 3, 1, 3),
        (-719_469, 0, 2, 29, 2),
        (-719_528, 0, 1, 1, 6),
        (-719_529, -1, 12, 31, 5),
        (-865_566, -400, 2, 29, 2),
        (2_932_896, 9999, 12, 31, 5),
    ])
    func knownDays(days: Int, year: Int, month: Int, day: Int, weekday: Int) {
        let date = CivilDate(year: year, month: month, day: day)
        #expect(CivilDate(daysSinceEpoch: days) == date)
        #expect(date.daysSinceEpoch == days)
        #expect(date.weekday == weekday)
    }

    /// Every day from year -1000 to 3000 follows the one before by the calendar's rules
    /// (a naive count of month lengths), and converts back to its day count.
    @Test func consecutiveDaysAndRoundTrips() {
        let first = CivilDate(year: -1000, month: 1, day: 1).daysSinceEpoch
        let last = CivilDate(year: 3000, month: 12, day: 31).daysSinceEpoch
        var expected = (year: -1000, month: 1, day: 1)
        var mismatches: [Int] = []
        for days in first...last {
            let date = CivilDate(daysSinceEpoch: days)
            if (date.year, date.month, date.day) != expected || date.daysSinceEpoch != days || !date.isValid {
                mismatches.append(days)
                if mismatches.count > 5 { break }
            }
            expected.day += 1
            if expected.day > Self.naiveLength(month: expected.month, year: expected.year) {
                expected.day = 1
                expected.month += 1
                if expected.month > 12 { (expected.year, expected.month) = (expected.year + 1, 1) }
            }
        }
        #expect(mismatches.isEmpty)
        #expect(last - first + 1 == 4001 * 365 + Self.naiveLeapYears(from: -1000, through: 3000))
    }

    /// Round trips far from the epoch, both ways (about ±5.8 million years).
    @Test(arguments: [-2_147_483_648, -987_654_321, -1, 1, 123_456_789, 2_147_483_647])
    func roundTripsFarAway(days: Int) {
        let date = CivilDate(daysSinceEpoch: days)
        #expect(date.isValid)
        #expect(date.daysSinceEpoch == days)
        #expect(CivilDate(daysSinceEpoch: days + 1).daysSinceEpoch == days + 1)
    }

    /// The Gregorian years, leap years included, as Foundation's calendar reads them (from 1600:
    /// before 1582 Foundation switches to the Julian calendar; this one stays proleptic).
    @Test(arguments: [1600, 1700, 1899, 1900, 1969, 1970, 1972, 2000, 2024, 2100, 2400, 9999])
    func agreesWithFoundation(year: Int) throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        for month in 1...12 {
            for day in [1, 15, 28, 29, 30, 31] {
                let components = DateComponents(year: year, month: month, day: day)
                let date = CivilDate(year: year, month: month, day: day)
                #expect(date.isValid == components.isValidDate(in: calendar), "\(year)-\(month)-\(day)")
                guard date.isValid, let foundation = calendar.date(from: components) else { continue }
                let foundationDays = Int((foundation.timeIntervalSince1970 / 86_400).rounded(.down))
                #expect(date.daysSinceEpoch == foundationDays, "\(year)-\(month)-\(day)")
                #expect(CivilDate(daysSinceEpoch: foundationDays) == date)
                let weekday = calendar.component(.weekday, from: foundation)  // 1 is Sunday
                #expect(date.weekday == (weekday + 5) % 7 + 1, "\(year)-\(month)-\(day)")
            }
        }
        #expect(
            CivilDate.isLeapYear(year)
                == (calendar.range(
                    of: .day, in: .year,
                    for: try #require(
                        calendar.date(from: DateComponents(year: year, month: 6, day: 1))))?.count == 366))
    }

    @Test(arguments: [(-400, true), (-100, false), (-4, true), (-1, false), (0, true), (4, true), (1900, false)])
    func leapYears(year: Int, leap: Bool) {
        #expect(CivilDate.isLeapYear(year) == leap)
        #expect(CivilDate.daysIn(month: 2, year: year) == (leap ? 29 : 28))
        #expect(CivilDate(year: year, month: 12, day: 31).dayOfYear == (leap ? 366 : 365))
    }

    @Test(arguments: [(-1, 1, -1, 0), (-86_401, 86_400, -2, 86_399), (7, 7, 1, 0), (-7, 7, -1, 0), (6, 7, 0, 6)])
    func floorDivision(value: Int, divisor: Int, quotient: Int, remainder: Int) {
        #expect(value.floorDivided(by: divisor) == quotient)
        #expect(value.floorModulo(divisor) == remainder)
    }

    private static func naiveLength(month: Int, year: Int) -> Int {
        let lengths = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        return month == 2 && leap ? 29 : lengths[month - 1]
    }

    private static func naiveLeapYears(from first: Int, through last: Int) -> Int {
        (first...last).filter { $0 % 4 == 0 && ($0 % 100 != 0 || $0 % 400 == 0) }.count
    }
}
