/// The `format`s `matchesJsonSchema` checks; any other is refused when the stub loads.
enum JSONSchemaFormat {
    static func holds(_ format: String, _ text: String) -> Bool {
        switch format {
        case "date-time": return DateTimeFormat.iso(text).map { $0.offset != nil && text.contains("T") } ?? false
        case "date":
            return text.utf8.count == 10 && DateTimeFormat.iso(text) != nil
        case "email":
            let parts = text.split(separator: "@", omittingEmptySubsequences: false)
            return parts.count == 2 && !parts[0].isEmpty && parts[1].contains(".") && !text.contains(" ")
        case "uuid":
            let groups = text.split(separator: "-", omittingEmptySubsequences: false).map(\.count)
            return groups == [8, 4, 4, 4, 12] && text.allSatisfy { $0 == "-" || $0.isHexDigit }
        case "uri":
            guard let colon = text.firstIndex(of: ":"), colon != text.startIndex else { return false }
            return text[..<colon].allSatisfy { $0.isLetter || $0.isNumber || "+-.".contains($0) }
                && text.first?.isLetter == true && !text.contains(" ")
        case "ipv4":
            let octets = text.split(separator: ".", omittingEmptySubsequences: false)
            return octets.count == 4
                && octets.allSatisfy { $0.count <= 3 && !$0.isEmpty && (Int($0).map { $0 <= 255 } ?? false) }
        default: return false
        }
    }
}
