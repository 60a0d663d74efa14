import HTTPCore
import LinearRegex

extension TemplateHelpers {
    static let strings: [String: Function] = [
        "trim": { call throws(TemplateError) in .string(String(try call.parameter(0, "text").text.trimmingSpaces)) },
        "upper": { call throws(TemplateError) in .string(try call.parameter(0, "text").text.uppercased()) },
        "lower": { call throws(TemplateError) in .string(try call.parameter(0, "text").text.lowercased()) },
        "capitalize": { call throws(TemplateError) in
            let text = try call.parameter(0, "text").text
            let fully = call.flag("fully")
            var result = ""
            var atWordStart = true
            for character in text {
                if character.isWhitespace {
                    atWordStart = true
                    result.append(character)
                } else if atWordStart {
                    result += character.uppercased()
                    atWordStart = false
                } else {
                    result += fully ? character.lowercased() : String(character)
                }
            }
            return .string(result)
        },
        "base64": { call throws(TemplateError) in
            let text = try call.parameter(0, "text").text
            if call.flag("decode") {
                guard let bytes = Base64Text.decode(text) else {
                    throw call.failure("could not decode '\(text.prefix(40))' as base64")
                }
                return .string(String(decoding: bytes, as: UTF8.self))
            }
            let padding = call.hash("padding").map { $0.text != "false" } ?? true
            return .string(Base64Text.encode(Array(text.utf8), padding: padding))
        },
        "urlEncode": { call throws(TemplateError) in
            let text = try call.parameter(0, "text").text
            if call.flag("decode") { return .string(text.removingPercentEncoding(plusAsSpace: true) ?? text) }
            return .string(formEncode(text))
        },
        "substring": { call throws(TemplateError) in
            let characters = Array(try call.parameter(0, "text").text)
            guard let start = try call.parameter(1, "a start index").integer else {
                throw call.failure("expects a whole number as the start index")
            }
            let end = call.parameters.count > 2 ? call.parameters[2].integer ?? characters.count : characters.count
            guard start >= 0, start <= end, end <= characters.count else {
                throw call.failure("range \(start)..<\(end) is outside the text's \(characters.count) characters")
            }
            return .string(String(characters[start..<end]))
        },
        "replace": { call throws(TemplateError) in
            let text = try call.parameter(0, "text").text
            let target = try call.parameter(1, "the text to replace").text
            let replacement = try call.parameter(2, "the replacement").text
            guard !target.isEmpty else { return .string(text) }
            let most = text.utf8.count / target.utf8.count * max(replacement.utf8.count, 1) + text.utf8.count
            try call.checkLength(most)
            return .string(text.replacing(target, with: replacement))
        },
        "abbreviate": { call throws(TemplateError) in
            let text = try call.parameter(0, "text").text
            guard let width = try call.parameter(1, "a width").integer, width >= 4 else {
                throw call.failure("expects a width of at least 4")
            }
            return .string(text.count <= width ? text : String(text.prefix(width - 3)) + "...")
        },
        "defaultIfEmpty": { call throws(TemplateError) in
            let value = call.parameters.first ?? .null
            return value.isTruthy ? value : (call.parameters.count > 1 ? call.parameters[1] : .string(""))
        },
    ]

    /// `application/x-www-form-urlencoded` as Java's `URLEncoder` writes it.
    static func formEncode(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."),
                UInt8(ascii: "*"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: " "): result += "+"
            default:
                let hex = Array("0123456789ABCDEF".utf8)
                result.unicodeScalars.append("%")
                result.unicodeScalars.append(Unicode.Scalar(hex[Int(byte >> 4)]))
                result.unicodeScalars.append(Unicode.Scalar(hex[Int(byte & 15)]))
            }
        }
        return result
    }

    /// `contains` and `matches`, which answer true or false (and work as blocks).
    static let predicates: [String: Function] = [
        "contains": { call throws(TemplateError) in
            let container = try call.parameter(0, "text or a list")
            let item = try call.parameter(1, "what to look for")
            if case .null = item { return .bool(false) }
            switch container {
            case .array, .json(.array), .node:
                let entries = container.entries
                if !entries.isEmpty { return .bool(entries.contains { $0.value.text == item.text }) }
                return .bool(container.text.contains(item.text))
            default:
                return .bool(container.text.contains(item.text))
            }
        },
        "matches": { call throws(TemplateError) in
            guard call.parameters.count >= 2 else {
                throw call.wireMockFailure("You must specify the string to be matched and the regular expression")
            }
            let text = call.parameters[0].text
            let pattern = call.parameters[1].text
            do {
                return .bool(try RegexCache.regex(pattern).wholeMatches(text))
            } catch {
                throw call.failure("cannot use the pattern '\(pattern)': \(error)")
            }
        },
        "startsWith": { call throws(TemplateError) in
            .bool(try call.parameter(0, "text").text.hasPrefix(try call.parameter(1, "a prefix").text))
        },
        "endsWith": { call throws(TemplateError) in
            .bool(try call.parameter(0, "text").text.hasSuffix(try call.parameter(1, "a suffix").text))
        },
    ]
}

/// Base64 (RFC 4648), standard alphabet.
enum Base64Text {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encode(_ bytes: [UInt8], padding: Bool = true) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let a = bytes[index]
            let b = index + 1 < bytes.count ? bytes[index + 1] : 0
            let c = index + 2 < bytes.count ? bytes[index + 2] : 0
            out.append(alphabet[Int(a >> 2)])
            out.append(alphabet[Int((a & 3) << 4 | b >> 4)])
            if index + 1 < bytes.count {
                out.append(alphabet[Int((b & 15) << 2 | c >> 6)])
            } else if padding {
                out.append(61)
            }
            if index + 2 < bytes.count { out.append(alphabet[Int(c & 63)]) } else if padding { out.append(61) }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func decode(_ text: String) -> [UInt8]? {
        var values: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): values.append(byte - 65)
            case UInt8(ascii: "a")...UInt8(ascii: "z"): values.append(byte - 71)
            case UInt8(ascii: "0")...UInt8(ascii: "9"): values.append(byte + 4)
            case UInt8(ascii: "+"), UInt8(ascii: "-"): values.append(62)
            case UInt8(ascii: "/"), UInt8(ascii: "_"): values.append(63)
            case UInt8(ascii: "="), 0x20, 0x0A, 0x0D: continue
            default: return nil
            }
        }
        if values.count % 4 == 1 { return nil }
        var out: [UInt8] = []
        var index = 0
        while index < values.count {
            let chunk = values[index..<min(index + 4, values.count)].map { UInt32($0) }
            var group: UInt32 = 0
            for (position, value) in chunk.enumerated() { group |= value << UInt32(18 - 6 * position) }
            out.append(UInt8(group >> 16 & 255))
            if chunk.count > 2 { out.append(UInt8(group >> 8 & 255)) }
            if chunk.count > 3 { out.append(UInt8(group & 255)) }
            index += 4
        }
        return out
    }
}
