import HTTPCore

extension ViewModelReport {
    /// The table as a terminal shows it: a header, one line per row, then the dropped pets.
    ///
    /// ```
    /// PET        VET
    /// Rex Smith  Ann Lee, DVM
    ///
    /// Dropped 1 of 2 pets:
    ///   pet 1 'Tom': vet 7 has no 'lastName'
    /// ```
    ///
    /// Names and reasons come from the API: control characters in them are shown escaped
    /// (``TerminalText/escape(_:)``), so they cannot act on the terminal or the log.
    public func renderedText() -> String {
        let petHeader = "PET"
        let shownRows = rows.map {
            (pet: TerminalText.escape($0.petName), vet: TerminalText.escape($0.vetNameAndTitle))
        }
        let width = min(40, shownRows.map(\.pet.count).max().map { max($0, petHeader.count) } ?? petHeader.count)
        func padded(_ text: String) -> String {
            text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
        }
        var lines = ["\(padded(petHeader))  VET"]
        for row in shownRows {
            lines.append("\(padded(row.pet))  \(row.vet)")
        }
        if rows.isEmpty { lines.append("(no rows)") }
        if !dropped.isEmpty {
            lines.append("")
            lines.append("Dropped \(dropped.count) of \(petCount) pets:")
            for pet in dropped { lines.append("  \(TerminalText.escape(pet.description))") }
        }
        return lines.joined(separator: "\n")
    }

    /// The report as one JSON object, keys in this order:
    /// `{"rows":[{"petName":…,"vetNameAndTitle":…}],"dropped":[{"index":N,"reason":…}],"requests":N}`.
    public func renderedJSON(requests: Int) -> String {
        let rowItems = rows.map {
            "{\"petName\":\(jsonString($0.petName)),\"vetNameAndTitle\":\(jsonString($0.vetNameAndTitle))}"
        }
        let droppedItems = dropped.map { "{\"index\":\($0.index),\"reason\":\(jsonString($0.reason.description))}" }
        return "{\"rows\":[\(rowItems.joined(separator: ","))],\"dropped\":[\(droppedItems.joined(separator: ","))],"
            + "\"requests\":\(requests)}"
    }
}

/// A JSON string literal (RFC 8259 §7): quotes, backslashes and control characters escaped.
func jsonString(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": result += "\\\""
        case "\\": result += "\\\\"
        case "\n": result += "\\n"
        case "\r": result += "\\r"
        case "\t": result += "\\t"
        case _ where scalar.value < 0x20:
            let hex = String(scalar.value, radix: 16)
            result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        default: result.unicodeScalars.append(scalar)
        }
    }
    return result + "\""
}
