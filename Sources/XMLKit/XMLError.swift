/// Why a text is not an XML document XMLKit accepts, and where (1-based line and column;
/// 0 when libxml2 gave no place).
package struct XMLError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The line of the problem, from 1 (0: unknown).
    package let line: Int
    /// The column of the problem, from 1 (0: unknown).
    package let column: Int
    /// What is wrong.
    package let message: String

    /// Creates an error.
    package init(line: Int, column: Int, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    package var description: String {
        line > 0 ? "line \(line), column \(max(column, 1)): \(message)" : message
    }
}

/// Bounds on the work one document or one XPath evaluation may cause: a request body is
/// outside input, so nothing it holds may make the event loop do unbounded work.
package struct XMLLimits: Sendable, Hashable {
    /// The longest document read, in bytes.
    package var maxBytes: Int
    /// The deepest element nesting (libxml2 itself stops at 256 without `XML_PARSE_HUGE`).
    package var maxDepth: Int
    /// The most nodes (elements, attributes, texts) a document may hold.
    package var maxNodes: Int
    /// The most XPath evaluation steps (libxml2's `opLimit`).
    package var maxXPathOperations: Int
    /// The longest XPath expression, in bytes.
    package var maxXPathLength: Int

    /// The defaults: 8 MiB (the HTTP server's body limit), depth 256, 200,000 nodes, 5,000,000 XPath steps, 4 KiB expressions.
    package init(
        maxBytes: Int = 8 << 20, maxDepth: Int = 256, maxNodes: Int = 200_000, maxXPathOperations: Int = 5_000_000,
        maxXPathLength: Int = 4096
    ) {
        self.maxBytes = maxBytes
        self.maxDepth = maxDepth
        self.maxNodes = maxNodes
        self.maxXPathOperations = maxXPathOperations
        self.maxXPathLength = maxXPathLength
    }

    /// The defaults.
    package static let standard = XMLLimits()
}
