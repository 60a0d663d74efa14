/// Where in a template: a 1-based line and column.
package struct TemplatePosition: Sendable, Hashable, CustomStringConvertible {
    /// The line, from 1.
    package let line: Int
    /// The column (in characters), from 1.
    package let column: Int

    /// Creates a position.
    package init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// `line 2, column 7`.
    package var description: String { "line \(line), column \(column)" }
}

/// What is wrong with a template (when it is compiled) or went wrong rendering it.
package struct TemplateError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where; nil when the whole template is concerned (its size).
    package let position: TemplatePosition?
    /// What, in a sentence.
    package let message: String
    /// Whether the render stops (a bound was reached, or a division by zero, which WireMock
    /// answers with a 500); a helper's other errors render in place as `[ERROR: message]`, as
    /// WireMock renders them.
    package let stopsRender: Bool

    /// Creates an error.
    package init(_ message: String, at position: TemplatePosition?, stopsRender: Bool = false) {
        self.message = message
        self.position = position
        self.stopsRender = stopsRender
    }

    /// `line 1, column 3: unknown helper 'foo'`.
    package var description: String { position.map { "\($0): \(message)" } ?? message }
}

/// The bounds on one template: nothing a template or a request says can make compiling or
/// rendering do unbounded work.
package struct TemplateLimits: Sendable, Hashable {
    /// The most characters of template source (UTF-8 bytes).
    package var maximumSourceLength: Int
    /// The deepest nesting of blocks and subexpressions.
    package var maximumDepth: Int
    /// The most UTF-8 bytes one render may produce.
    package var maximumOutputLength: Int
    /// The most elements `each` (and `range`, `randomValue` and other makers of lists) may
    /// visit or make in one render, all together.
    package var maximumIterations: Int
    /// The most work helpers may do in one render, counted as the bytes of text (and the
    /// elements of lists) they are given, all calls together.
    package var maximumWork: Int

    /// Creates limits.
    package init(
        maximumSourceLength: Int = 1 << 20, maximumDepth: Int = 32, maximumOutputLength: Int = 4 << 20,
        maximumIterations: Int = 100_000, maximumWork: Int = 64 << 20
    ) {
        self.maximumWork = maximumWork
        self.maximumSourceLength = maximumSourceLength
        self.maximumDepth = maximumDepth
        self.maximumOutputLength = maximumOutputLength
        self.maximumIterations = maximumIterations
    }

    /// The defaults: 1 MiB of source, depth 32, 4 MiB of output, 100,000 iterations, 64 Mi
    /// units of helper work.
    package static let standard = TemplateLimits()
}
