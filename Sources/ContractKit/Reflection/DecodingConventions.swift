import APISchema
import Foundation
import JSONKit

/// What the app's `JSONDecoder` does to keys, dates and data, read off the decoder itself so
/// the contract describes the JSON that decoder accepts: the key a `CodingKey` is read from
/// under the key strategy, and the schema of a `Date` and a `Data` under their strategies.
///
/// Keys are found by asking the decoder: a candidate JSON key (the coding key itself, its
/// snake_case, kebab-case, PascalCase and upper-case forms) is decoded and the key the model
/// sees is compared, so custom strategies are handled as the app handles them. A coding key no
/// candidate reaches is an error that says so, never a guess.
final class DecodingConventions: @unchecked Sendable {
    // Used from one reflection at a time (a ReflectionSession is not shared across threads).
    private let decoder: JSONDecoder
    private let strategy: Strategy
    private var cache: [String: String?] = [:]
    /// The schema of a `Date` under the decoder's date strategy.
    let dateSchema: Schema
    /// The schema of a `Data` under the decoder's data strategy.
    let dataSchema: Schema

    private enum Strategy {
        case useDefaultKeys
        case convertFromSnakeCase
        case custom
    }

    /// Reads the decoder's strategies.
    init(decoder: JSONDecoder) {
        self.decoder = decoder
        switch decoder.keyDecodingStrategy {
        case .useDefaultKeys: strategy = .useDefaultKeys
        case .convertFromSnakeCase: strategy = .convertFromSnakeCase
        default: strategy = .custom
        }
        dateSchema = Self.dateSchema(decoder)
        dataSchema = Self.dataSchema(decoder.dataDecodingStrategy)
    }

    /// The strategy's name for messages.
    var keyStrategyName: String {
        switch strategy {
        case .useDefaultKeys: "useDefaultKeys"
        case .convertFromSnakeCase: "convertFromSnakeCase"
        case .custom: "a custom key strategy"
        }
    }

    /// Whether the key strategy is a closure of the app's, asked rather than known.
    var hasCustomKeyStrategy: Bool { strategy == .custom }

    /// A decoding error's coding path in the JSON keys the decoder reads (`$[0].temperatureC`
    /// under `convertFromSnakeCase` is `$[0].temperature_c`), and the coding keys no JSON key
    /// reaches (kept as they are).
    func jsonPath(for codingPath: JSONPath) -> (path: JSONPath, unreached: [String]) {
        var unreached: [String] = []
        let components = codingPath.components.map { component -> JSONPath.Component in
            guard case .key(let key) = component else { return component }
            if let json = jsonKey(for: key) { return .key(json) }
            unreached.append(key)
            return component
        }
        return (JSONPath(components: components), unreached)
    }

    /// The JSON key the decoder reads `codingKey` from, or nil when no JSON key reaches it.
    func jsonKey(for codingKey: String) -> String? {
        if strategy == .useDefaultKeys { return codingKey }
        if let known = cache[codingKey] { return known }
        let candidates: [String] =
            switch strategy {
            case .useDefaultKeys: [codingKey]
            case .convertFromSnakeCase: [KeyCase.snake(codingKey), codingKey]
            case .custom:
                [
                    codingKey, KeyCase.snake(codingKey), KeyCase.kebab(codingKey), KeyCase.pascal(codingKey),
                    KeyCase.snake(codingKey).uppercased(), codingKey.lowercased(),
                ]
            }
        var found: String?
        var tried: Set<String> = []
        for candidate in candidates where tried.insert(candidate).inserted {
            if decodedKey(candidate) == codingKey {
                found = candidate
                break
            }
        }
        cache[codingKey] = found
        return found
    }

    /// The key a model's container sees for a JSON key, as the app's decoder converts it.
    private func decodedKey(_ jsonKey: String) -> String? {
        var object = "{\""
        for scalar in jsonKey.unicodeScalars {
            switch scalar {
            case "\"": object += "\\\""
            case "\\": object += "\\\\"
            default:
                if scalar.value < 0x20 {
                    object +=
                        "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                        + String(scalar.value, radix: 16)
                } else {
                    object.unicodeScalars.append(scalar)
                }
            }
        }
        object += "\":0}"
        return (try? decoder.decode(KeyProbe.self, from: Data(object.utf8)))?.keys.first
    }

    private static func dateSchema(_ decoder: JSONDecoder) -> Schema {
        switch decoder.dateDecodingStrategy {
        case .iso8601: return Schema(types: [.string], format: "date-time")
        case .secondsSince1970:
            return Schema(types: [.number], description: "A date: seconds since 1970-01-01T00:00:00Z.")
        case .millisecondsSince1970:
            return Schema(types: [.number], description: "A date: milliseconds since 1970-01-01T00:00:00Z.")
        case .deferredToDate:
            return Schema(
                types: [.number], description: "A date: seconds since 2001-01-01T00:00:00Z (Date's own Codable form).")
        default:
            // A formatter or a custom closure: ask the decoder which forms it reads.
            let forms: [(json: String, schema: Schema)] = [
                ("\"2024-05-01T12:30:00Z\"", Schema(types: [.string], format: "date-time")),
                ("\"2024-05-01T12:30:00.250Z\"", Schema(types: [.string], format: "date-time")),
                ("\"2024-05-01\"", Schema(types: [.string], format: "date")),
                ("1714566600", Schema(types: [.number], description: "A date as a number.")),
            ]
            for form in forms
            where (try? decoder.decode(DateProbe.self, from: Data("{\"d\":\(form.json)}".utf8))) != nil {
                return form.schema
            }
            return Schema(description: "A date read by a custom decoding strategy: its form is not checked.")
        }
    }

    private static func dataSchema(_ strategy: JSONDecoder.DataDecodingStrategy) -> Schema {
        switch strategy {
        case .base64: return Schema(types: [.string], format: "byte")
        case .deferredToData:
            return Schema(types: [.array], items: Schema(types: [.integer]), description: "Bytes, one number each.")
        default:
            return Schema(description: "Bytes read by a custom decoding strategy: their form is not checked.")
        }
    }
}

/// An object with one date, to ask a decoder which date forms it reads.
private struct DateProbe: Decodable {
    let d: Date
}

/// Decodes an object only to list the keys its container sees.
private struct KeyProbe: Decodable {
    let keys: [String]

    struct AnyKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        keys = try decoder.container(keyedBy: AnyKey.self).allKeys.map(\.stringValue)
    }
}

/// Spellings of a camelCase key.
enum KeyCase {
    /// The words of a camelCase name: `userID` → `user`, `ID`; `URLString` → `URL`, `String`.
    static func words(_ name: String) -> [String] {
        let characters = Array(name)
        var words: [String] = []
        var current = ""
        for (index, character) in characters.enumerated() {
            if character == "_" || character == "-" {
                if !current.isEmpty { words.append(current) }
                current = ""
                continue
            }
            if character.isUppercase, let previous = current.last {
                let nextIsLower = index + 1 < characters.count && characters[index + 1].isLowercase
                if previous.isLowercase || previous.isNumber || (previous.isUppercase && nextIsLower) {
                    words.append(current)
                    current = ""
                }
            }
            current.append(character)
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// `stargazersCount` → `stargazers_count` (as `JSONEncoder.KeyEncodingStrategy.convertToSnakeCase`).
    static func snake(_ name: String) -> String {
        words(name).map { $0.lowercased() }.joined(separator: "_")
    }

    /// `stargazersCount` → `stargazers-count`.
    static func kebab(_ name: String) -> String {
        words(name).map { $0.lowercased() }.joined(separator: "-")
    }

    /// `stargazersCount` → `StargazersCount`.
    static func pascal(_ name: String) -> String {
        guard let first = name.first else { return name }
        return first.uppercased() + name.dropFirst()
    }
}
