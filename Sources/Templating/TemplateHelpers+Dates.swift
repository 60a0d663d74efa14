extension TemplateHelpers {
    static let dates: [String: Function] = [
        "now": { call throws(TemplateError) in try dated(call.now, call) },
        "date": { call throws(TemplateError) in
            // Without a date, now (WireMock's `{{date offset='6 days'}}`).
            guard let value = call.parameters.first else { return try dated(call.now, call) }
            guard let milliseconds = try instant(value, format: nil, call) else {
                throw call.failure("expects a date, found '\(value.text.prefix(40))'")
            }
            return try dated(milliseconds, call)
        },
        "parseDate": { call throws(TemplateError) in
            let text = try call.parameter(0, "date text").text
            let format = call.hashText("format")
            guard let milliseconds = try instant(.string(text), format: format, call) else {
                throw call.failure(
                    "cannot read '\(text.prefix(40))' as a date" + (format.map { " in the format '\($0)'" } ?? ""))
            }
            return .date(TemplateDate(milliseconds: milliseconds))
        },
    ]

    /// The formats `parseDate` tries when given none: ISO 8601 forms, then RFC 1123.
    private static let defaultFormats = [
        "yyyy-MM-dd'T'HH:mm:ss.SSSX", "yyyy-MM-dd'T'HH:mm:ssX", "yyyy-MM-dd'T'HH:mmX", "yyyy-MM-dd",
        "EEE, dd MMM yyyy HH:mm:ss z",
    ].map(JavaDateFormat.init)

    /// A date from a date value, epoch text, or text in `format` (or an ISO 8601 form).
    private static func instant(
        _ value: TemplateValue, format: String?, _ call: HelperCall
    ) throws(TemplateError)
        -> Int64?
    {
        if case .date(let date) = value { return date.milliseconds }
        let text = String(value.text.trimmingSpaces)
        switch format {
        case "epoch": return Int64(text).flatMap(TemplateDate.inRange)
        case "unix":
            return Int64(text).flatMap { abs($0) < Int64.max / 1000 ? $0 * 1000 : nil }.flatMap(TemplateDate.inRange)
        case let pattern?:
            if let letter = JavaDateFormat.unknownLetter(in: pattern) {
                throw call.failure("does not know the date pattern letter '\(letter)' in '\(pattern)'")
            }
            return JavaDateFormat(pattern).parse(text)
        case nil:
            for format in defaultFormats { if let parsed = format.parse(text) { return parsed } }
            return nil
        }
    }

    /// The date with the call's `offset`, `format` and `timezone` applied.
    private static func dated(_ milliseconds: Int64, _ call: HelperCall) throws(TemplateError) -> TemplateValue {
        var milliseconds = milliseconds
        if let offset = call.hashText("offset") {
            guard let moved = TemplateDate.applying(offset: offset, to: milliseconds).flatMap(TemplateDate.inRange)
            else {
                throw call.failure("expects an offset such as '3 days' or '-1 hours', found '\(offset)'")
            }
            milliseconds = moved
        }
        let format = call.hashText("format")
        if let format, format != "epoch", format != "unix", let letter = JavaDateFormat.unknownLetter(in: format) {
            throw call.failure("does not know the date pattern letter '\(letter)' in '\(format)'")
        }
        let zone = call.hashText("timezone")
        if let zone, !TemplateDate.isKnownZone(zone) {
            throw call.failure("does not know the time zone '\(zone)'")
        }
        return .date(TemplateDate(milliseconds: milliseconds, format: format, timezone: zone))
    }
}
