import Foundation

/// A curl command line of Prism's harness read into the request curl sends: the words split as
/// a POSIX shell splits them (quotes, backslashes), then curl's options. An option or shell
/// construct this reader does not know is an error, never skipped.
struct CurlCommand: Sendable, Equatable {
    var method: String
    /// The request target: the URL's path and query, as written.
    var target: String
    /// The header fields curl sends, in order (`Host`, `User-Agent`, `Accept`, then the
    /// command's, then the body's framing fields).
    var headers: [(String, String)]
    var body: [UInt8]
    /// `-I`/`--head`: curl prints the head alone, whatever the method.
    var headOnly: Bool

    static func == (lhs: CurlCommand, rhs: CurlCommand) -> Bool {
        lhs.method == rhs.method && lhs.target == rhs.target && lhs.body == rhs.body && lhs.headOnly == rhs.headOnly
            && lhs.headers.map { "\($0.0): \($0.1)" } == rhs.headers.map { "\($0.0): \($0.1)" }
    }

    struct ParseError: Error, CustomStringConvertible, Equatable {
        let message: String
        var description: String { message }
    }

    /// The boundary of a `-F` body (curl draws one at random).
    static let boundary = "------------------------prismharness0000"

    /// Reads `curl ...`.
    init(parsing line: String) throws(ParseError) {
        var words = try Self.shellWords(line)[...]
        guard words.popFirst() == "curl" else { throw ParseError(message: "expected 'curl' first in '\(line)'") }
        var method: String?
        var url: String?
        var head = false
        var extra: [(String, String)] = []
        var data: [String] = []
        var form: [(String, String)] = []
        func value(_ option: String) throws(ParseError) -> String {
            guard let word = words.popFirst() else { throw ParseError(message: "\(option) needs a value") }
            return word
        }
        while let word = words.popFirst() {
            switch word {
            case "-i", "--include", "-s", "--silent", "-L", "--location": break
            case "-I", "--head": head = true
            case "-X", "--request": method = try value(word)
            case "-H", "--header": extra.append(try Self.header(try value(word)))
            case "-d", "--data", "--data-ascii", "--data-binary", "--data-raw":
                let text = try value(word)
                guard word == "--data-raw" || !text.hasPrefix("@") else {
                    throw ParseError(message: "\(word) '\(text)': reading a file is not supported")
                }
                data.append(text)
            case "--data-urlencode": data.append(try Self.urlencoded(try value(word)))
            case "-F", "--form":
                let field = try value(word)
                guard let equals = field.firstIndex(of: "="),
                    !field[field.index(after: equals)...].hasPrefix("@"),
                    !field[field.index(after: equals)...].hasPrefix("<")
                else { throw ParseError(message: "-F '\(field)': expected name=value") }
                form.append((String(field[..<equals]), String(field[field.index(after: equals)...])))
            case "-b", "--cookie": extra.append(("Cookie", try value(word)))
            case "--url": url = try value(word)
            default:
                if word.hasPrefix("-X"), word.count > 2, !word.hasPrefix("--") {
                    method = String(word.dropFirst(2))
                } else if word.hasPrefix("-"), !word.hasPrefix("--"), word.count > 2 {
                    // Bundled short options (`-sIXGET`): each letter an option, the last may
                    // take the rest of the word as its value.
                    var letters = Substring(word.dropFirst())
                    while let letter = letters.popFirst() {
                        switch letter {
                        case "s", "i", "L": break
                        case "I": head = true
                        case "X":
                            guard !letters.isEmpty else { method = try value("-X"); break }
                            method = String(letters)
                            letters = ""
                        default: throw ParseError(message: "unknown option '-\(letter)' in '\(word)'")
                        }
                    }
                } else if word.hasPrefix("-") {
                    throw ParseError(message: "unknown option '\(word)'")
                } else {
                    guard url == nil else { throw ParseError(message: "a second URL '\(word)'") }
                    url = word
                }
            }
        }
        guard let url else { throw ParseError(message: "no URL in '\(line)'") }
        guard let schemeEnd = url.range(of: "://") else { throw ParseError(message: "'\(url)' has no scheme") }
        let rest = url[schemeEnd.upperBound...]
        let hostEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        let host = String(rest[..<hostEnd])
        var target = String(rest[hostEnd...])
        if let hash = target.firstIndex(of: "#") { target = String(target[..<hash]) }
        if target.hasPrefix("?") || target.isEmpty { target = "/" + target }
        guard data.isEmpty || form.isEmpty else { throw ParseError(message: "both -d and -F") }

        var headers: [(String, String)] = [("Host", host), ("User-Agent", "curl/8.5.0"), ("Accept", "*/*")]
        for (name, value) in extra {
            // A field curl writes itself is replaced; `Name:` with nothing after it sends none.
            if Self.curlFields.contains(name.lowercased()) {
                headers.removeAll { $0.0.lowercased() == name.lowercased() }
            }
            if !value.isEmpty { headers.append((name, value)) }
        }
        func has(_ name: String) -> Bool { extra.contains { $0.0.lowercased() == name.lowercased() } }
        var body: [UInt8] = []
        if !data.isEmpty {
            body = Array(data.joined(separator: "&").utf8)
            if !has("Content-Type") { headers.append(("Content-Type", "application/x-www-form-urlencoded")) }
        } else if !form.isEmpty {
            for (name, value) in form {
                body += Array("--\(Self.boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n".utf8)
                body += Array(value.utf8) + Array("\r\n".utf8)
            }
            body += Array("--\(Self.boundary)--\r\n".utf8)
            // curl keeps a given multipart type and adds the boundary to it.
            if let index = headers.firstIndex(where: { $0.0.lowercased() == "content-type" }) {
                headers[index].1 += "; boundary=\(Self.boundary)"
            } else {
                headers.append(("Content-Type", "multipart/form-data; boundary=\(Self.boundary)"))
            }
        }
        if !body.isEmpty { headers.append(("Content-Length", String(body.count))) }
        self.method = method ?? (head ? "HEAD" : body.isEmpty ? "GET" : "POST")
        self.target = target
        self.headers = headers
        self.body = body
        self.headOnly = head
    }

    /// The fields curl writes itself.
    static let curlFields: Set<String> = ["host", "user-agent", "accept"]

    /// `-H 'Name: value'`.
    static func header(_ text: String) throws(ParseError) -> (String, String) {
        guard let colon = text.firstIndex(of: ":") else { throw ParseError(message: "header '\(text)' has no ':'") }
        let value = text[text.index(after: colon)...].drop { $0 == " " || $0 == "\t" }
        return (String(text[..<colon]), String(value))
    }

    /// `--data-urlencode`'s forms: `content`, `=content`, `name=content` (the content
    /// percent-encoded, everything but letters, digits and `-._~`).
    static func urlencoded(_ text: String) throws(ParseError) -> String {
        func encode(_ part: Substring) -> String {
            var out = ""
            for byte in part.utf8 {
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                    UInt8(ascii: "~"):
                    out.unicodeScalars.append(Unicode.Scalar(byte))
                default:
                    let hex = Array("0123456789ABCDEF")
                    out += "%\(hex[Int(byte >> 4)])\(hex[Int(byte & 15)])"
                }
            }
            return out
        }
        if text.hasPrefix("@") || text.contains("@") && !text.contains("=") {
            throw ParseError(message: "--data-urlencode '\(text)': reading a file is not supported")
        }
        guard let equals = text.firstIndex(of: "=") else { return encode(text[...]) }
        let name = text[..<equals]
        let content = encode(text[text.index(after: equals)...])
        return name.isEmpty ? content : "\(name)=\(content)"
    }

    /// The words of a command line as a POSIX shell splits them: blanks separate words;
    /// single quotes keep everything; double quotes keep everything but `\` before `$`, `` ` ``,
    /// `"`, `\` and a newline; a backslash outside quotes keeps the next character. Operators
    /// (`|`, `;`, `&`, `<`, `>`, `(`, `)`), substitutions and variables outside single quotes
    /// are errors.
    static func shellWords(_ line: String) throws(ParseError) -> [String] {
        var words: [String] = []
        var word = ""
        var inWord = false
        var characters = Array(line)[...]
        while let character = characters.popFirst() {
            switch character {
            case " ", "\t", "\n":
                if inWord { words.append(word) }
                word = ""
                inWord = false
            case "'":
                inWord = true
                guard let end = characters.firstIndex(of: "'") else {
                    throw ParseError(message: "unclosed ' in '\(line)'")
                }
                word += String(characters[..<end])
                characters = characters[characters.index(after: end)...]
            case "\"":
                inWord = true
                var closed = false
                while let inner = characters.popFirst() {
                    if inner == "\"" {
                        closed = true
                        break
                    }
                    if inner == "\\", let next = characters.first, "$`\"\\\n".contains(next) {
                        word.append(next)
                        characters = characters.dropFirst()
                    } else if inner == "`" || inner == "$" && characters.first.map(Self.startsExpansion) == true {
                        throw ParseError(message: "a shell expansion in '\(line)'")
                    } else {
                        word.append(inner)
                    }
                }
                guard closed else { throw ParseError(message: "unclosed \" in '\(line)'") }
            case "\\":
                inWord = true
                guard let next = characters.popFirst() else { throw ParseError(message: "a trailing \\ in '\(line)'") }
                word.append(next)
            case "&" where characters.first != "&":
                // `curl URL?a=1&b=2` unquoted: the shell runs `curl URL?a=1` in the background
                // and the rest as a command of its own, whose output the harness does not read;
                // here the rest must be a variable assignment (`b=2`), which prints nothing.
                let rest = String(characters).trimmingCharacters(in: .whitespaces)
                let name = rest.prefix { $0 != "=" }
                guard name.count < rest.count, !rest.contains(" "), let first = name.first, !first.isNumber,
                    name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") })
                else {
                    throw ParseError(message: "the shell operator '&' before '\(rest)' in '\(line)'")
                }
                if inWord { words.append(word) }
                return words
            case "|", ";", "&", "<", ">", "(", ")", "`":
                throw ParseError(message: "the shell operator '\(character)' in '\(line)'")
            case "$" where characters.first.map(Self.startsExpansion) == true:
                throw ParseError(message: "a shell expansion in '\(line)'")
            default:
                inWord = true
                word.append(character)
            }
        }
        if inWord { words.append(word) }
        return words
    }

    /// Whether `$` followed by this character expands (a name, `{`, `(` or a special parameter).
    static func startsExpansion(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || "_{(?#@*!$-".contains(character)
    }
}
