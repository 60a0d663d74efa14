import LinearRegex

/// Parses the expression inside `[?( ... )]`: `||` over `&&` over `!`, comparisons and
/// parentheses.
struct JSONPathFilterParser {
    var path: JSONPathParser

    init(_ path: JSONPathParser) {
        self.path = path
    }

    typealias Expression = JSONPathFilter.Expression
    typealias Operand = JSONPathFilter.Operand

    mutating func parseOr() throws(JSONPathError) -> Expression {
        var expression = try parseAnd()
        while consume("||") { expression = .or(expression, try parseAnd()) }
        return expression
    }

    mutating func parseAnd() throws(JSONPathError) -> Expression {
        var expression = try parseUnary()
        while consume("&&") { expression = .and(expression, try parseUnary()) }
        return expression
    }

    mutating func parseUnary() throws(JSONPathError) -> Expression {
        path.skipSpaces()
        if path.current == "!" && peek(1) != "=" {
            path.index += 1
            return .not(try parseUnary())
        }
        if path.current == "(" {
            path.index += 1
            let inner = try parseOr()
            path.skipSpaces()
            guard path.current == ")" else { throw path.failure("')'") }
            path.index += 1
            return inner
        }
        let lhs = try parseOperand()
        path.skipSpaces()
        for comparison in ["==", "!=", "<=", ">=", "=~", "<", ">"] where consume(comparison) {
            guard let op = JSONPathFilter.Comparison(rawValue: comparison) else { break }
            let rhs = try parseOperand()
            if op == .matches, case .regex = rhs {
                return .compare(lhs, op, rhs)
            } else if op == .matches {
                throw path.failure("a /regex/ after '=~'")
            }
            return .compare(lhs, op, rhs)
        }
        guard case .current = lhs else {
            if case .root = lhs { return .exists(lhs) }
            if case .function = lhs { return .exists(lhs) }
            throw path.failure("a comparison operator after a literal")
        }
        return .exists(lhs)
    }

    mutating func parseOperand() throws(JSONPathError) -> Operand {
        path.skipSpaces()
        guard let character = path.current else { throw path.failure("'@', '$' or a literal") }
        switch character {
        case "@", "$":
            path.index += 1
            var components = try path.parseComponents()
            // `@.things.size()`: the last step names a function when a `()` follows it.
            if path.current == "(", peek(1) == ")", case .key(let name)? = components.last {
                guard let function = JSONPathFilter.Function(rawValue: name) else {
                    throw path.failure(
                        "a function of "
                            + JSONPathFilter.Function.allCases.map { "\($0.rawValue)()" }.joined(separator: ", "))
                }
                path.index += 2
                components.removeLast()
                let inner: Operand = character == "@" ? .current(components) : .root(components)
                return .function(function, inner)
            }
            return character == "@" ? .current(components) : .root(components)
        case "'", "\"":
            return .literal(.string(try path.parseQuoted()))
        case "/":
            return try parseRegex()
        default:
            let start = path.index
            while let next = path.current, next.isLetter || next.isNumber || "+-.".contains(next) { path.index += 1 }
            let word = String(path.characters[start..<path.index])
            switch word {
            case "true": return .literal(.bool(true))
            case "false": return .literal(.bool(false))
            case "null": return .literal(.null)
            default:
                if let value = try? JSONValue(parsing: word), value.kind == .integer || value.kind == .number {
                    return .literal(value)
                }
                path.index = start
                throw path.failure("'@', '$', a string, a number, true, false or null")
            }
        }
    }

    mutating func parseRegex() throws(JSONPathError) -> Operand {
        path.index += 1
        var pattern = ""
        while let character = path.current, character != "/" {
            path.index += 1
            if character == "\\", let escaped = path.current, escaped == "/" {
                path.index += 1
                pattern.append("/")
            } else {
                pattern.append(character)
            }
        }
        guard path.current == "/" else { throw path.failure("a closing '/' for the regex") }
        path.index += 1
        var caseInsensitive = false
        if path.current == "i" {
            caseInsensitive = true
            path.index += 1
        }
        do {
            return .regex(try JSONPathFilter.FilterRegex(pattern: pattern, caseInsensitive: caseInsensitive))
        } catch {
            throw path.failure("a valid regular expression (\(error.reason))")
        }
    }

    func peek(_ offset: Int) -> Character? {
        let position = path.index + offset
        return position < path.characters.count ? path.characters[position] : nil
    }

    mutating func consume(_ token: String) -> Bool {
        path.skipSpaces()
        let tokenCharacters = Array(token)
        guard path.index + tokenCharacters.count <= path.characters.count else { return false }
        for (offset, character) in tokenCharacters.enumerated() where path.characters[path.index + offset] != character
        {
            return false
        }
        path.index += tokenCharacters.count
        return true
    }
}
