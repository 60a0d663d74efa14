import Platform

/// A Handlebars template, compiled once: parse errors (and unknown helpers) are found here,
/// with their line and column; ``render(_:)`` then walks the tree per request. Immutable, and
/// a class: a server reads its templates per request, and a struct's copy would retain each
/// of its members.
///
/// ```swift
/// let template = try Template("Hello {{request.query.name}}!")
/// let text = try template.render(.object([("request", .node(request))]))
/// ```
package final class Template: Sendable {
    let segments: [TemplateSegment]
    /// The bounds this template renders within.
    package let limits: TemplateLimits
    /// The source, when it is plain text with no mustache (rendering it returns it).
    package let plainText: String?
    /// The bytes of the template's literal text (a render's output is usually near it).
    let textLength: Int

    /// Compiles `source`, or throws what is wrong and where.
    package init(_ source: String, limits: TemplateLimits = .standard) throws(TemplateError) {
        var parser = TemplateParser(source, limits: limits)
        segments = try parser.parse()
        self.limits = limits
        textLength = Self.textLength(segments)
        if segments.isEmpty {
            plainText = ""
        } else if segments.count == 1, case .text(let text) = segments[0] {
            plainText = text
        } else {
            plainText = nil
        }
    }

    private static func textLength(_ segments: [TemplateSegment]) -> Int {
        var length = 0
        for segment in segments {
            if case .text(let text) = segment { length += text.utf8.count }
        }
        return min(length, 64 * 1024)
    }

    /// Whether `text` holds a mustache at all (`{{`): text without one renders as itself.
    package static func mayContainTemplate(_ text: String) -> Bool {
        var previous: UInt8 = 0
        for byte in text.utf8 {
            if byte == UInt8(ascii: "{") && previous == UInt8(ascii: "{") { return true }
            previous = byte
        }
        return false
    }

    /// Renders the template with `context` as `this` (its members are the top-level names);
    /// `now` answers the clock's wall-clock time, read at most once per render; the `state`
    /// helper reads `state` (no context exists without one).
    package func render(
        _ context: TemplateValue, clock: TimeSource = .system, state: (any TemplateStateSource)? = nil
    ) throws(TemplateError) -> String {
        if let plainText { return plainText }
        return String(decoding: try renderBytes(context, clock: clock, state: state), as: UTF8.self)
    }

    /// Renders as ``render(_:clock:state:)`` does, into UTF-8 bytes (a response body) with no
    /// intermediate text: one buffer, its capacity reserved from the template's text.
    package func renderBytes(
        _ context: TemplateValue, clock: TimeSource = .system, state: (any TemplateStateSource)? = nil
    ) throws(TemplateError) -> [UInt8] {
        if let plainText { return Array(plainText.utf8) }
        var renderer = TemplateRenderer(
            root: context, limits: limits, clock: clock, capacity: textLength + 64, state: state)
        try renderer.render(segments)
        return renderer.output
    }
}
