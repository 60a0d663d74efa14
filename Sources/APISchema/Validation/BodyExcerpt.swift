import JSONKit

/// The part of a response body around a finding, for reports that show it (the HTML report):
/// the object or array holding the drifted value, pretty-printed, with the value's member
/// marked; or, for a body that is not JSON, the raw text around the place parsing stopped.
///
/// Bounded whatever the body's size: at most ``window`` members or elements either side of the
/// marked one (the rest counted on a `…` line), keys shortened to 40 characters, other values
/// to 60 and the marked one to 240, containers inside shown compact or as `{… 5 keys}`; so
/// about 1.5 KB at most, a few hundred bytes usually. The first ``perResponse`` findings of a
/// response get one, and ``FindingCollector`` keeps at most
/// ``FindingCollector/excerptBudgetPerOperation`` bytes of them per operation.
///
/// ```swift
/// // body [{"firstName": "A", "vetId": 1}, {"firstName": "C", "vetId": "2"}], finding at $[1].vetId
/// excerpt.location   // "$[1]"
/// excerpt.text       // "{\n  \"firstName\": \"C\",\n  \"vetId\": \"2\"\n}"
/// excerpt.parts.marked   // "\"vetId\": \"2\""
/// ```
public struct BodyExcerpt: Sendable, Hashable {
    /// What the text shows: the JSONPath of the printed value (`$[1]`), or the bytes of a body
    /// that is not JSON (`bytes 0-120 of 480`).
    public var location: String
    /// The excerpt, lines separated by `\n`.
    public var text: String
    /// The characters of ``text`` to mark (offsets in `Character`s); empty at the end of a
    /// truncated body; nil when there is nothing to mark (a missing key).
    public var highlight: Range<Int>?

    /// Creates an excerpt.
    public init(location: String, text: String, highlight: Range<Int>? = nil) {
        self.location = location
        self.text = text
        self.highlight = highlight
    }

    /// The text before the marked part, the marked part and the rest (all of it `before` when
    /// nothing is marked).
    public var parts: (before: String, marked: String, after: String) {
        guard let highlight, highlight.lowerBound >= 0, highlight.upperBound <= text.count else {
            return (text, "", "")
        }
        let start = text.index(text.startIndex, offsetBy: highlight.lowerBound)
        let end = text.index(start, offsetBy: highlight.count)
        return (String(text[..<start]), String(text[start..<end]), String(text[end...]))
    }

    /// Members or elements shown either side of the marked one.
    public static let window = 5
    /// The findings of one response that get an excerpt (the first ones).
    public static let perResponse = 16
    static let keyLimit = 40
    static let valueLimit = 60
    static let markedLimit = 240
    static let rawBefore = 200
    static let rawAfter = 80
}

extension BodyExcerpt {
    /// The excerpt around `path` in `body`: its parent object or array with its member
    /// marked. For a missing key that is the probable old name of a renamed one (`actual` is
    /// `'vet_id': 1`), the new key is marked. Nil for a path the body does not reach.
    package static func around(_ path: JSONPath, in body: JSONValue, actual: String) -> BodyExcerpt? {
        var parent = path.components
        for component in parent {
            switch component {
            case .key, .index: continue
            default: return nil
            }
        }
        guard let target = parent.popLast() else {
            var printer = Printer()
            printer.value(body, marked: nil)
            return BodyExcerpt(location: "$", text: printer.text, highlight: 0..<printer.count)
        }
        let parentPath = JSONPath(components: parent)
        guard let context = body[parentPath] else { return nil }
        var marked: Int?
        switch (context, target) {
        case (.object(let object), .key(let key)):
            marked = object.members.firstIndex { $0.key == key } ?? renamedKey(in: object, actual: actual)
        case (.array(let elements), .index(let position)):
            marked = elements.indices.contains(position) ? position : nil
        default:
            marked = nil
        }
        var printer = Printer()
        printer.value(context, marked: marked)
        return BodyExcerpt(location: parentPath.description, text: printer.text, highlight: printer.highlight)
    }

    /// The position of the member `actual` names (`'vet_id': 1`), the longest key that fits.
    private static func renamedKey(in object: JSONObject, actual: String) -> Int? {
        var best: (position: Int, length: Int)?
        for (position, member) in object.members.enumerated() where actual.hasPrefix("'\(member.key)': ") {
            if member.key.count > best?.length ?? -1 { best = (position, member.key.count) }
        }
        return best?.position
    }

    /// The raw text of `bytes` around `offset` (where parsing stopped), the character there
    /// marked: at most 200 bytes before it and 80 after.
    package static func around(offset: Int, in bytes: [UInt8]) -> BodyExcerpt {
        let offset = min(max(offset, 0), bytes.count)
        var start = max(0, offset - rawBefore)
        while start < offset, bytes[start] & 0xC0 == 0x80 { start += 1 }
        var end = min(bytes.count, offset + rawAfter)
        while end > offset, end < bytes.count, bytes[end] & 0xC0 == 0x80 { end -= 1 }
        let before = String(decoding: bytes[start..<offset], as: UTF8.self)
        let rest = String(decoding: bytes[offset..<end], as: UTF8.self)
        let marked = rest.first.map(String.init) ?? ""
        let text = before + rest
        let location = bytes.isEmpty ? "body" : "bytes \(start)-\(end) of \(bytes.count)"
        return BodyExcerpt(
            location: location, text: text, highlight: before.count..<(before.count + marked.count))
    }

    /// Pretty-prints one object or array with a window of members around the marked one.
    struct Printer {
        private(set) var text = ""
        private(set) var count = 0
        private(set) var highlight: Range<Int>?

        private mutating func append(_ piece: String) {
            text += piece
            count += piece.count
        }

        mutating func value(_ value: JSONValue, marked: Int?) {
            switch value {
            case .object(let object):
                block("{", "}", count: object.count, noun: "member", marked: marked) { position in
                    let member = object.members[position]
                    return (BodyExcerpt.shorten(member.key.jsonQuoted, to: BodyExcerpt.keyLimit) + ": ", member.value)
                }
            case .array(let elements):
                block("[", "]", count: elements.count, noun: "item", marked: marked) { ("", elements[$0]) }
            default:
                append(BodyExcerpt.inline(value, limit: BodyExcerpt.markedLimit))
            }
        }

        /// The members from `window` before the marked one to `window` after it (the first
        /// ones when none is marked), the others counted; only those shown are looked at.
        private mutating func block(
            _ open: String, _ close: String, count total: Int, noun: String, marked: Int?,
            row: (Int) -> (prefix: String, value: JSONValue)
        ) {
            guard total > 0 else { return append(open + close) }
            let centre = marked ?? BodyExcerpt.window
            let first = max(0, centre - BodyExcerpt.window)
            let last = min(total - 1, centre + BodyExcerpt.window)
            append(open + "\n")
            if first > 0 { append("  … \(first) \(noun)\(first == 1 ? "" : "s") before\n") }
            for position in first...last {
                append("  ")
                let start = count
                let limit = position == marked ? BodyExcerpt.markedLimit : BodyExcerpt.valueLimit
                let (prefix, value) = row(position)
                append(prefix + BodyExcerpt.inline(value, limit: limit))
                if position == marked { highlight = start..<count }
                append(position < total - 1 ? ",\n" : "\n")
            }
            let after = total - 1 - last
            if after > 0 { append("  … \(after) more \(noun)\(after == 1 ? "" : "s")\n") }
            append(close)
        }
    }

    /// A value on one line: compact JSON when short enough, a shortened string, or a container
    /// summarised as `{… 5 keys}` / `[… 12 items]`.
    static func inline(_ value: JSONValue, limit: Int) -> String {
        switch value {
        case .object(let object):
            compact(value, limit: limit) ?? "{… \(object.count) key\(object.count == 1 ? "" : "s")}"
        case .array(let elements):
            compact(value, limit: limit) ?? "[… \(elements.count) item\(elements.count == 1 ? "" : "s")]"
        default:
            shorten(value.serialized(), to: limit)
        }
    }

    /// The value as one line of JSON (`{"a": 1, "b": [2]}`), or nil once it passes `limit`
    /// characters: a large container is not written out only to be thrown away.
    static func compact(_ value: JSONValue, limit: Int) -> String? {
        var output = ""
        func write(_ value: JSONValue) -> Bool {
            switch value {
            case .object(let object):
                output += "{"
                for (position, member) in object.members.enumerated() {
                    output += (position > 0 ? ", " : "") + member.key.jsonQuoted + ": "
                    guard output.utf8.count <= limit, write(member.value) else { return false }
                }
                output += "}"
            case .array(let elements):
                output += "["
                for (position, element) in elements.enumerated() {
                    if position > 0 { output += ", " }
                    guard output.utf8.count <= limit, write(element) else { return false }
                }
                output += "]"
            default:
                output += value.serialized()
            }
            return output.utf8.count <= limit
        }
        return write(value) && output.count <= limit ? output : nil
    }

    static func shorten(_ text: String, to limit: Int) -> String {
        text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
    }
}

extension String {
    /// The string as a JSON string literal, quotes and escapes included.
    fileprivate var jsonQuoted: String {
        JSONValue.string(self).serialized()
    }
}
