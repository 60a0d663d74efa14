/// Swift type names as people write them: `[PetJsonModel]`, `Int?`, `[String: Int]`.
enum SwiftTypeName {
    static func of(_ type: Any.Type) -> String {
        prettify(String(describing: type))
    }

    /// Rewrites `Array<X>`, `Optional<X>` and `Dictionary<K, V>` into sugar, recursively.
    static func prettify(_ name: String) -> String {
        guard let open = name.firstIndex(of: "<"), name.hasSuffix(">") else { return name }
        let base = String(name[..<open])
        let inner = String(name[name.index(after: open)..<name.index(before: name.endIndex)])
        let arguments = splitArguments(inner).map(prettify)
        switch (base, arguments.count) {
        case ("Array", 1): return "[\(arguments[0])]"
        case ("Optional", 1): return "\(arguments[0])?"
        case ("Dictionary", 2): return "[\(arguments[0]): \(arguments[1])]"
        default: return "\(base)<\(arguments.joined(separator: ", "))>"
        }
    }

    private static func splitArguments(_ text: String) -> [String] {
        var parts: [String] = []
        var depth = 0
        var current = ""
        for character in text {
            switch character {
            case "<":
                depth += 1
                current.append(character)
            case ">":
                depth -= 1
                current.append(character)
            case "," where depth == 0:
                parts.append(current.trimmingCharacters())
                current = ""
            default: current.append(character)
            }
        }
        parts.append(current.trimmingCharacters())
        return parts
    }

    /// A name usable under `components/schemas` (`^[A-Za-z0-9._-]+$`).
    static func componentName(_ typeName: String) -> String {
        var result = ""
        for character in typeName {
            if character.isASCII && (character.isLetter || character.isNumber || character == "." || character == "-") {
                result.append(character)
            } else if character != " " {
                result.append("_")
            }
        }
        return result
    }
}

extension String {
    func trimmingCharacters() -> String {
        var slice = Substring(self)
        while slice.first == " " { slice.removeFirst() }
        while slice.last == " " { slice.removeLast() }
        return String(slice)
    }
}
