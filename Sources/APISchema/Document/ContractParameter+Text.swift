import JSONKit

extension ContractParameter {
    /// The style a parameter is sent in: its own `style`, else its location's default (`form`
    /// for query and cookie, `simple` for path and header).
    package var effectiveStyle: String {
        style ?? (location == .query || location == .cookie ? "form" : "simple")
    }

    /// Whether the parameter is sent exploded: its own `explode`, else its style's default
    /// (true for `form` only).
    package var effectiveExplode: Bool {
        explode ?? (effectiveStyle == "form")
    }

    /// The text a value of this parameter is sent as in one path segment, one header or one
    /// query occurrence, as OpenAPI's style table says: a scalar as its text, an array's items
    /// and an object's names and values joined by the style's separators (`simple`: `3,4,5`,
    /// `R=100,G=200` exploded; `label`: `.3.4.5`; `matrix`: `;id=3,4,5`, `;id=3;id=4`,
    /// `;R=100;G=200` exploded; `spaceDelimited`, `pipeDelimited`, ``tabDelimited``: the
    /// items on a space, `|` or a tab). Each name and value goes through `encode` (percent-encoding
    /// for a URL, nothing for a header) and the separators stay as they are. Nil for what one
    /// occurrence cannot carry: an exploded `form` array or object and a `deepObject` (several
    /// query pairs), and an array or object inside an array or object.
    package func text(of value: JSONValue, encode: (String) -> String = { $0 }) -> String? {
        let style = effectiveStyle
        let explode = effectiveExplode
        func scalar(_ value: JSONValue) -> String? {
            switch value {
            case .string(let text): encode(text)
            case .int(let number): String(number)
            case .number(let number): number.text
            case .bool(let flag): String(flag)
            case .null: ""
            case .array, .object: nil
            }
        }
        // Each item of an array, or name and value of an object, in order.
        var items: [(name: String?, value: String)] = []
        switch value {
        case .array(let elements):
            for element in elements {
                guard let text = scalar(element) else { return nil }
                items.append((nil, text))
            }
        case .object(let object):
            for member in object.members {
                guard let text = scalar(member.value) else { return nil }
                items.append((encode(member.key), text))
            }
        default:
            guard let text = scalar(value) else { return nil }
            switch style {
            case "label": return "." + text
            case "matrix": return ";" + encode(name) + (text.isEmpty ? "" : "=" + text)
            default: return text
            }
        }
        let isObject = if case .object = value { true } else { false }
        if style == "form" && explode && location == .query || style == "deepObject" { return nil }
        let separator: String =
            switch style {
            case "spaceDelimited": " "
            case "pipeDelimited": "|"
            case ContractParameter.tabDelimited: "\t"
            case "label" where explode: "."
            case "matrix" where explode: ";"
            default: ","
            }
        let joined: String
        if isObject {
            // Exploded: `name=value` items; else names and values alternating.
            joined =
                explode
                ? items.map { "\($0.name ?? "")=\($0.value)" }.joined(separator: separator)
                : items.flatMap { [$0.name ?? "", $0.value] }.joined(separator: separator)
        } else if style == "matrix" && explode {
            joined = items.map { encode(name) + "=" + $0.value }.joined(separator: ";")
        } else {
            joined = items.map(\.value).joined(separator: separator)
        }
        switch style {
        case "label": return "." + joined
        case "matrix" where explode: return ";" + joined
        case "matrix": return ";" + encode(name) + "=" + joined
        default: return joined
        }
    }
}
