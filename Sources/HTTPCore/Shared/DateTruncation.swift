/// WireMock's date truncations (`DateTimeTruncation`): where a date-time moves before it is
/// compared (`truncateExpected`, `truncateActual`) or rendered (`truncateDate`). The one rule,
/// on a date and a time of day; date matching and templating both apply it.
package enum DateTruncation: String, Sendable, CaseIterable {
    case firstSecondOfMinute = "first second of minute"
    case firstMinuteOfHour = "first minute of hour"
    case firstHourOfDay = "first hour of day"
    case firstDayOfMonth = "first day of month"
    case firstDayOfNextMonth = "first day of next month"
    case lastDayOfMonth = "last day of month"
    case firstDayOfYear = "first day of year"
    case firstDayOfNextYear = "first day of next year"
    case lastDayOfYear = "last day of year"

    /// The truncation named `text`, in any case, with spaces or underscores (as WireMock's
    /// `fromString`: `first day of month`, `FIRST_DAY_OF_MONTH`), or nil.
    package init?(named text: String) {
        self.init(rawValue: String(text.lowercased().map { $0 == "_" ? " " : $0 }))
    }

    /// The date and time of day moved as the truncation says; the time's seconds and anything
    /// finer are zero afterwards (callers clear their own sub-second fields).
    package func apply(
        to date: CivilDate, hour: Int, minute: Int
    ) -> (date: CivilDate, hour: Int, minute: Int) {
        var date = date
        switch self {
        case .firstSecondOfMinute: return (date, hour, minute)
        case .firstMinuteOfHour: return (date, hour, 0)
        case .firstHourOfDay: return (date, 0, 0)
        case .firstDayOfMonth: date.day = 1
        case .firstDayOfNextMonth:
            date.day = 1
            date.month += 1
            if date.month > 12 { (date.month, date.year) = (1, date.year + 1) }
        case .lastDayOfMonth: date.day = CivilDate.daysIn(month: date.month, year: date.year)
        case .firstDayOfYear: (date.month, date.day) = (1, 1)
        case .firstDayOfNextYear: (date.year, date.month, date.day) = (date.year + 1, 1, 1)
        case .lastDayOfYear: (date.month, date.day) = (12, 31)
        }
        return (date, 0, 0)
    }
}
