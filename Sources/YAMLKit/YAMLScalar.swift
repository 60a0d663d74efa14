import CYAML
import JSONKit

/// The JSON value of a YAML scalar under the YAML 1.2 core schema: plain scalars may be null,
/// booleans, integers or floats; quoted and block scalars are strings; an explicit standard
/// tag (`!!str`, `!!int`, ...) decides; any other tag is an error.
enum YAMLScalar {
    static let tagPrefix = "tag:yaml.org,2002:"

    static func resolve(_ text: String, plain: Bool, tag: String?, mark: yaml_mark_t) throws(YAMLError) -> JSONValue {
        if let tag, tag != "!" {
            guard tag.hasPrefix(tagPrefix) else {
                throw YAMLError(mark, "the tag '\(tag)' is not supported (JSON has no such value)")
            }
            let name = String(tag.dropFirst(tagPrefix.count))
            switch name {
            case "str": return .string(text)
            case "null":
                guard isNull(text) else { throw YAMLError(mark, "'\(text)' is tagged !!null but is not null") }
                return .null
            case "bool":
                guard let flag = bool(text) else {
                    throw YAMLError(mark, "'\(text)' is tagged !!bool but is not true or false")
                }
                return .bool(flag)
            case "int":
                guard let number = try integer(text, mark: mark) else {
                    throw YAMLError(mark, "'\(text)' is tagged !!int but is not an integer")
                }
                return number
            case "float":
                let number: JSONValue?
                if let floating = try float(text, mark: mark) {
                    number = floating
                } else {
                    number = try integer(text, mark: mark)
                }
                guard let number else {
                    throw YAMLError(mark, "'\(text)' is tagged !!float but is not a number")
                }
                return number
            default:
                throw YAMLError(mark, "the tag '!!\(name)' is not supported (JSON has no such value)")
            }
        }
        guard plain && tag == nil else { return .string(text) }
        if isNull(text) { return .null }
        if let flag = bool(text) { return .bool(flag) }
        if let number = try integer(text, mark: mark) { return number }
        if let number = try float(text, mark: mark) { return number }
        return .string(text)
    }

    static func isNull(_ text: String) -> Bool {
        text.isEmpty || text == "~" || text == "null" || text == "Null" || text == "NULL"
    }

    static func bool(_ text: String) -> Bool? {
        switch text {
        case "true", "True", "TRUE": true
        case "false", "False", "FALSE": false
        default: nil
        }
    }

    /// `[-+]?[0-9]+`, `0o[0-7]+`, `0x[0-9a-fA-F]+`; nil when the text is not one of those.
    static func integer(_ text: String, mark: yaml_mark_t) throws(YAMLError) -> JSONValue? {
        let bytes = Array(text.utf8)
        func all(_ range: ArraySlice<UInt8>, _ isDigit: (UInt8) -> Bool) -> Bool {
            !range.isEmpty && range.allSatisfy(isDigit)
        }
        let isDecimal = { (byte: UInt8) in byte >= 0x30 && byte <= 0x39 }
        if bytes.count > 2 && bytes[0] == UInt8(ascii: "0")
            && (bytes[1] == UInt8(ascii: "o") || bytes[1] == UInt8(ascii: "x"))
        {
            let hex = bytes[1] == UInt8(ascii: "x")
            let digits = bytes[2...]
            let valid =
                hex
                ? all(digits) { isDecimal($0) || (($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x66) }
                : all(digits) { $0 >= 0x30 && $0 <= 0x37 }
            guard valid else { return nil }
            guard let value = Int64(String(decoding: digits, as: UTF8.self), radix: hex ? 16 : 8) else {
                throw YAMLError(mark, "the integer '\(text)' does not fit in 64 bits")
            }
            return .int(value)
        }
        var start = 0
        if let first = bytes.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") { start = 1 }
        guard all(bytes[start...], isDecimal) else { return nil }
        if let value = Int64(text.hasPrefix("+") ? String(text.dropFirst()) : text) { return .int(value) }
        // Too large for 64 bits: kept as written (without a plus sign or leading zeros).
        var digits = Array(bytes[start...].drop { $0 == UInt8(ascii: "0") })
        if digits.isEmpty { digits = [UInt8(ascii: "0")] }
        let sign = bytes.first == UInt8(ascii: "-") ? "-" : ""
        return JSONNumber(text: sign + String(decoding: digits, as: UTF8.self)).map(JSONValue.number)
    }

    /// `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`; `.inf` and `.nan` are errors
    /// (JSON has no such numbers); nil for other text.
    static func float(_ text: String, mark: yaml_mark_t) throws(YAMLError) -> JSONValue? {
        let unsigned = text.hasPrefix("-") || text.hasPrefix("+") ? String(text.dropFirst()) : text
        if [".inf", ".Inf", ".INF", ".nan", ".NaN", ".NAN"].contains(unsigned) {
            throw YAMLError(mark, "'\(text)' is not a number JSON can hold")
        }
        guard isFloatSyntax(Array(unsigned.utf8)), let double = Double(text) else { return nil }
        // Kept as written where that is JSON (`1.50` stays `1.50`), else the nearest Double.
        let sign = text.hasPrefix("-") ? "-" : ""
        if let number = JSONNumber(text: sign + unsigned) { return .number(number) }
        guard let number = JSONNumber(double) else { throw YAMLError(mark, "'\(text)' is not a number JSON can hold") }
        return .number(number)
    }

    private static func isFloatSyntax(_ bytes: [UInt8]) -> Bool {
        var index = 0
        let isDigit = { (byte: UInt8) in byte >= 0x30 && byte <= 0x39 }
        var mantissaDigits = 0
        while index < bytes.count, isDigit(bytes[index]) {
            index += 1
            mantissaDigits += 1
        }
        var hasDot = false
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            hasDot = true
            index += 1
            while index < bytes.count, isDigit(bytes[index]) {
                index += 1
                mantissaDigits += 1
            }
        }
        guard mantissaDigits > 0 else { return false }
        var hasExponent = false
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            hasExponent = true
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
                index += 1
            }
            let start = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            guard index > start else { return false }
        }
        return index == bytes.count && (hasDot || hasExponent)
    }
}
