/// Text matched literally inside a Java regular expression (petmock's LinearRegex syntax), for
/// patterns built from paths: every ASCII character that is not a letter or digit escaped.
package enum RegexLiteral {
    /// The text, escaped so that it matches only itself.
    package static func escaped(_ text: some StringProtocol) -> String {
        var result = ""
        for character in text {
            if character.isASCII && !(character.isLetter || character.isNumber) { result.append("\\") }
            result.append(character)
        }
        return result
    }
}
