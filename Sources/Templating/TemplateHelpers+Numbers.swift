extension TemplateHelpers {
    /// `numberFormat number [format] [locale]` with `maximumFractionDigits=`,
    /// `minimumFractionDigits=`, `maximumIntegerDigits=`, `minimumIntegerDigits=`,
    /// `groupingUsed=` and `roundingMode=`, as WireMock documents it (see ``NumberFormat``).
    /// The locale defaults to `en_US` (WireMock's is the JVM's).
    static let numberFormat: Function = { call throws(TemplateError) in
        let value = try call.parameter(0, "a number")
        let format = call.parameters.count > 1 ? call.parameters[1].text : nil
        let locale = call.parameters.count > 2 ? call.parameters[2].text : nil
        let formatter: NumberFormat
        switch numberFormatter(format: format, locale: locale, hash: call.hash.map { ($0.key, $0.value.text) }) {
        case .success(let made): formatter = made
        case .failure(let problem): throw call.failure(problem.message)
        }
        let text: String
        switch value {
        case .int(let number): text = String(number)
        case .double(let number): text = number.isFinite ? "\(number)" : ""
        case .json(.number(let number)): text = number.text
        default: text = value.text
        }
        guard let formatted = formatter.format(text) else {
            throw call.failure(
                "expects a number (of at most 38 digits, below 1e165), found '\(value.text.prefix(40))'")
        }
        return .string(formatted)
    }

    /// The formatter a call describes, or what is wrong with it.
    static func numberFormatter(
        format: String?, locale localeName: String?, hash: [(String, String)]
    ) -> Result<NumberFormat, NumberFormatProblem> {
        guard let locale = NumberFormat.Locale.named(localeName ?? "en_US") else {
            return .failure(
                NumberFormatProblem(
                    message: "does not know the locale '\(localeName ?? "")': petmock knows "
                        + NumberFormat.Locale.names))
        }
        var formatter: NumberFormat
        switch NumberFormat.make(format, locale: locale) {
        case .success(let made): formatter = made
        case .failure(let problem):
            return .failure(
                NumberFormatProblem(
                    message: "expects 'integer', 'currency', 'percent' or a DecimalFormat pattern; the pattern '"
                        + "\(format ?? "")' \(problem.message)"))
        }
        for (key, text) in hash {
            if key == "roundingMode" {
                guard let mode = NumberFormat.Rounding(named: text) else {
                    return .failure(
                        NumberFormatProblem(
                            message: "expects roundingMode to be one of "
                                + NumberFormat.Rounding.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
                                + ", found '\(text.prefix(40))'"))
                }
                formatter.rounding = mode
                continue
            }
            if key == "groupingUsed" {
                guard text == "true" || text == "false" else {
                    return .failure(NumberFormatProblem(message: "expects groupingUsed=true or false, found '\(text)'"))
                }
                formatter.groupSize = text == "true" ? (formatter.groupSize == 0 ? 3 : formatter.groupSize) : 0
                continue
            }
            guard
                ["maximumFractionDigits", "minimumFractionDigits", "maximumIntegerDigits", "minimumIntegerDigits"]
                    .contains(key)
            else {
                return .failure(
                    NumberFormatProblem(
                        message: "does not know the argument '\(key)' (it takes maximumFractionDigits, "
                            + "minimumFractionDigits, maximumIntegerDigits, minimumIntegerDigits, groupingUsed, "
                            + "roundingMode)"))
            }
            guard let digits = Int(text), digits >= 0, digits <= NumberFormat.maximumDigits else {
                return .failure(
                    NumberFormatProblem(
                        message: "expects \(key) to be a whole number from 0 to \(NumberFormat.maximumDigits), "
                            + "found '\(text.prefix(40))'"))
            }
            // As Java's setters: a bound moves the other one when they would cross.
            switch key {
            case "maximumFractionDigits":
                formatter.maximumFractionDigits = digits
                formatter.minimumFractionDigits = min(formatter.minimumFractionDigits, digits)
            case "minimumFractionDigits":
                formatter.minimumFractionDigits = digits
                formatter.maximumFractionDigits = max(formatter.maximumFractionDigits, digits)
            case "maximumIntegerDigits":
                formatter.maximumIntegerDigits = digits
                formatter.minimumIntegerDigits = min(formatter.minimumIntegerDigits, digits)
            default:
                formatter.minimumIntegerDigits = digits
                if let maximum = formatter.maximumIntegerDigits, maximum < digits {
                    formatter.maximumIntegerDigits = digits
                }
            }
        }
        return .success(formatter)
    }
}
