/// A Java date pattern read into its pieces: the syntax `SimpleDateFormat` and
/// `DateTimeFormatter` share, and petkit's one reader of it (templating's `date`/`parseDate`
/// formats and the date-time matchers' `actualFormat` both start here). A run of one letter is
/// a field and its width (`yyyy`, `MM`); text between single quotes is literal, `''` a quote.
///
/// ```swift
/// JavaDatePattern("yyyy-MM-dd'T'HH").pieces
/// // [.field("y", 4), .literal("-"), .field("M", 2), .literal("-"), .field("d", 2),
/// //  .literal("T"), .field("H", 2)]
/// ```
package struct JavaDatePattern: Sendable, Hashable {
    /// A piece of a pattern.
    package enum Piece: Sendable, Hashable {
        /// Text to write or expect as it is: one character outside quotes, or one quoted run.
        case literal(String)
        /// A run of one letter: the field it names and how many times it was written.
        case field(Character, Int)
    }

    /// The pieces, in order.
    package let pieces: [Piece]
    /// Whether a quote was opened and never closed (its text runs to the end of the pattern).
    package let hasUnclosedQuote: Bool

    /// Reads a pattern; every letter, known to the caller or not, is a field.
    package init(_ pattern: String) {
        var pieces: [Piece] = []
        var unclosed = false
        var characters = pattern[...]
        while let character = characters.first {
            if character == "'" {
                characters.removeFirst()
                if characters.first == "'" {
                    pieces.append(.literal("'"))
                    characters.removeFirst()
                    continue
                }
                var text = ""
                var closed = false
                while let next = characters.first {
                    characters.removeFirst()
                    if next == "'" {
                        if characters.first == "'" {
                            text.append("'")
                            characters.removeFirst()
                            continue
                        }
                        closed = true
                        break
                    }
                    text.append(next)
                }
                unclosed = unclosed || !closed
                pieces.append(.literal(text))
            } else if character.isLetter {
                var count = 0
                while characters.first == character {
                    count += 1
                    characters.removeFirst()
                }
                pieces.append(.field(character, count))
            } else {
                pieces.append(.literal(String(character)))
                characters.removeFirst()
            }
        }
        self.pieces = pieces
        hasUnclosedQuote = unclosed
    }
}
