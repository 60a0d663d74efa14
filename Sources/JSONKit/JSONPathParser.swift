/// Parses JSONPath text into ``JSONPath`` values; filters recurse into expressions.
struct JSONPathParser {
    let text: String
    let characters: [Character]
    var index = 0

    init(_ text: String) {
        self.text = text
        self.characters = Array(text)
    }

    var current: Character? { index < characters.count ? characters[index] : nil }

    func failure(_ expected: String) -> JSONPathError {
        let found = current.map { "'\($0)'" } ?? "end of path"
        return JSONPathError(path: text, offset: index, expected: expected, found: found)
    }

    mutating func parsePath() throws(JSONPathError) -> JSONPath {
        skipSpaces()
        guard current == "$" else { throw failure("'$' at the start of the path") }
        index += 1
        var components = try parseComponents()
        var function: JSONPathFilter.Function?
        // `$.items.length()`: the last step names a function when `()` follows it.
        if current == "(", case .key(let name)? = components.last {
            let start = index - name.count
            guard index + 1 < characters.count, characters[index + 1] == ")" else {
                index += 1
                throw failure("')'")
            }
            guard let known = JSONPathFilter.Function(rawValue: name) else {
                index = start
                throw failure(
                    "a function: "
                        + JSONPathFilter.Function.allCases.map { "\($0.rawValue)()" }.joined(separator: ", "))
            }
            function = known
            components.removeLast()
            index += 2
        }
        skipSpaces()
        guard current == nil else {
            throw failure(function == nil ? "'.', '[' or the end of the path" : "the end of the path after a function")
        }
        return JSONPath(components: components, function: function)
    }

    /// Parses steps until something that cannot continue a path.
    mutating func parseComponents() throws(JSONPathError) -> [JSONPath.Component] {
        var components: [JSONPath.Component] = []
        while let character = current {
            if character == "." {
                index += 1
                if current == "." {
                    index += 1
                    if current == "*" {
                        index += 1
                        components.append(.descendant(nil))
                    } else if current == "[" {
                        index += 1
                        skipSpaces()
                        guard current == "'" || current == "\"" else { throw failure("a quoted name after '..['") }
                        let key = try parseQuoted()
                        try expectClosingBracket()
                        components.append(.descendant(key))
                    } else {
                        components.append(.descendant(try parseName()))
                    }
                } else if current == "*" {
                    index += 1
                    components.append(.wildcard)
                } else {
                    components.append(.key(try parseName()))
                }
            } else if character == "[" {
                index += 1
                components.append(try parseBracket())
            } else {
                break
            }
        }
        return components
    }

    mutating func parseName() throws(JSONPathError) -> String {
        let start = index
        while let character = current, character != ".", character != "[", character != " ", character != ")",
            character != "(",
            character != "=", character != "!", character != "<", character != ">", character != "&",
            character != "|", character != "]"
        {
            index += 1
        }
        guard index > start else { throw failure("a member name") }
        return String(characters[start..<index])
    }

    mutating func parseBracket() throws(JSONPathError) -> JSONPath.Component {
        skipSpaces()
        guard let character = current else { throw failure("a name, index, '*' or filter inside '[ ]'") }
        let component: JSONPath.Component
        if character == "'" || character == "\"" {
            component = .key(try parseQuoted())
        } else if character == "*" {
            index += 1
            component = .wildcard
        } else if character == "-" || character.isASCII && character.isNumber {
            component = .index(try parseInteger())
        } else if character == "?" {
            index += 1
            skipSpaces()
            guard current == "(" else { throw failure("'(' after '?'") }
            index += 1
            let start = index
            var expressionParser = JSONPathFilterParser(self)
            let expression = try expressionParser.parseOr()
            self.index = expressionParser.path.index
            skipSpaces()
            guard current == ")" else { throw failure("')' to end the filter") }
            let source = String(characters[start..<index]).trimmingSpaces()
            index += 1
            component = .filter(JSONPathFilter(text: source, expression: expression))
        } else {
            throw failure("a quoted name, an index, '*' or '?(' inside '[ ]'")
        }
        try expectClosingBracket()
        return component
    }

    mutating func expectClosingBracket() throws(JSONPathError) {
        skipSpaces()
        guard current == "]" else { throw failure("']'") }
        index += 1
    }

    mutating func parseInteger() throws(JSONPathError) -> Int {
        let start = index
        if current == "-" { index += 1 }
        while let character = current, character.isASCII, character.isNumber { index += 1 }
        guard let value = Int(String(characters[start..<index])) else {
            index = start
            throw failure("an integer index")
        }
        return value
    }

    mutating func parseQuoted() throws(JSONPathError) -> String {
        guard let quote = current else { throw failure("a quoted string") }
        index += 1
        var result = ""
        while let character = current {
            index += 1
            if character == quote { return result }
            if character == "\\" {
                guard let escaped = current else { break }
                index += 1
                result.append(escaped)
            } else {
                result.append(character)
            }
        }
        throw failure("a closing \(quote)")
    }

    mutating func skipSpaces() {
        while current == " " { index += 1 }
    }
}

extension String {
    func trimmingSpaces() -> String {
        var slice = Substring(self)
        while slice.first == " " { slice.removeFirst() }
        while slice.last == " " { slice.removeLast() }
        return String(slice)
    }
}
