import HTTPCore

/// WireMock's date truncations (`DateTimeTruncation`), by the names `truncateDate` takes.
enum DateTruncation: String, CaseIterable {
    case firstSecondOfMinute = "first second of minute"
    case firstMinuteOfHour = "first minute of hour"
    case firstHourOfDay = "first hour of day"
    case firstDayOfMonth = "first day of month"
    case firstDayOfNextMonth = "first day of next month"
    case lastDayOfMonth = "last day of month"
    case firstDayOfYear = "first day of year"
    case firstDayOfNextYear = "first day of next year"
    case lastDayOfYear = "last day of year"

    /// The truncation named `text`, in any case, spaces or underscores (as WireMock's
    /// `fromString`), or nil.
    init?(named text: String) {
        let key = text.lowercased().replacing("_", with: " ")
        guard let truncation = Self(rawValue: key) else { return nil }
        self = truncation
    }

    /// `expects one of ... , found 'x'`.
    static func problem(_ text: String) -> String {
        "expects a truncation, one of " + allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
            + "; found '\(text.prefix(40))'"
    }

    /// The instant truncated in `zone` (a name or an offset; nil is UTC).
    func apply(to milliseconds: Int64, zone: String?) -> Int64 {
        let offset = Int64(TemplateDate.offset(zone, at: milliseconds)) * 1000
        var time = CivilTime(milliseconds: milliseconds + offset)
        time.millisecond = 0
        time.second = 0
        if self != .firstSecondOfMinute { time.minute = 0 }
        if self != .firstSecondOfMinute && self != .firstMinuteOfHour { time.hour = 0 }
        switch self {
        case .firstSecondOfMinute, .firstMinuteOfHour, .firstHourOfDay: break
        case .firstDayOfMonth: time.day = 1
        case .firstDayOfNextMonth:
            time.day = 1
            time.month += 1
            if time.month > 12 { (time.month, time.year) = (1, time.year + 1) }
        case .lastDayOfMonth: time.day = CivilDate.daysIn(month: time.month, year: time.year)
        case .firstDayOfYear: (time.day, time.month) = (1, 1)
        case .firstDayOfNextYear: (time.day, time.month, time.year) = (1, 1, time.year + 1)
        case .lastDayOfYear: (time.day, time.month) = (31, 12)
        }
        let local = time.milliseconds
        // The zone's offset at the new instant (a daylight-saving change may lie between).
        return local - Int64(TemplateDate.offset(zone, at: local - offset)) * 1000
    }
}

extension TemplateHelpers {
    /// `truncateDate date 'first day of month'`: the date moved back (or on) to the start of
    /// its minute, hour, day, month or year, in its time zone (UTC when it has none), as
    /// WireMock's TruncateDateTimeHelper.
    static let truncateDate: Function = { call throws(TemplateError) in
        guard call.parameters.count >= 2 else {
            throw call.wireMockFailure("Truncation type must be specified as the first parameter to truncateDate")
        }
        guard case .date(let date) = call.parameters[0] else {
            throw call.wireMockFailure("A date object must be passed to the truncateDate helper")
        }
        let name = call.parameters[1].text
        guard let truncation = DateTruncation(named: name) else { throw call.failure(DateTruncation.problem(name)) }
        let moved = truncation.apply(to: date.milliseconds, zone: date.timezone)
        guard let inRange = TemplateDate.inRange(moved) else {
            throw call.failure("would move the date outside the years 0001 to 9999")
        }
        return .date(TemplateDate(milliseconds: inRange, format: nil, timezone: date.timezone))
    }
}
