import HTTPCore

extension DateTruncation {
    /// `expects one of ... , found 'x'`.
    static func problem(_ text: String) -> String {
        "expects a truncation, one of " + allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
            + "; found '\(text.prefix(40))'"
    }

    /// The instant truncated in `zone` (a name or an offset; nil is UTC).
    func apply(to milliseconds: Int64, zone: String?) -> Int64 {
        let offset = Int64(TemplateDate.offset(zone, at: milliseconds)) * 1000
        var time = CivilTime(milliseconds: milliseconds + offset)
        let moved = apply(
            to: CivilDate(year: time.year, month: time.month, day: time.day), hour: time.hour, minute: time.minute)
        (time.year, time.month, time.day) = (moved.date.year, moved.date.month, moved.date.day)
        (time.hour, time.minute, time.second, time.millisecond) = (moved.hour, moved.minute, 0, 0)
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
