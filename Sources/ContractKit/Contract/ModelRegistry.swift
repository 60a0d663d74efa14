import APISchema
import Foundation
import JSONKit

/// The real `Codable` types a contract's responses decode to, by Swift type name, so a
/// verifier can decode each body exactly as the app would and report where it throws.
///
/// ```swift
/// var models = ModelRegistry()
/// models.register(PetJsonModel.self)        // also registers [PetJsonModel]
/// models.decode(body, as: "[PetJsonModel]") // .failed(path: $[2].vetId, ...)
/// ```
public struct ModelRegistry: Sendable {
    /// What decoding a body with the registered type gave.
    public enum Outcome: Sendable, Hashable {
        /// No type is registered under that name.
        case notRegistered
        /// The body decoded.
        case decoded
        /// The decoder threw: where (as a JSONPath) and its message.
        case failed(path: JSONPath, message: String)
    }

    private var decoders: [String: @Sendable ([UInt8]) -> Outcome] = [:]
    private let makeDecoder: @Sendable () -> JSONDecoder

    /// Creates an empty registry; `makeDecoder` configures the decoder the app uses
    /// (by default a `JSONDecoder` reading ISO 8601 dates, matching `date-time` schemas).
    public init(makeDecoder: @escaping @Sendable () -> JSONDecoder = ModelRegistry.defaultDecoder) {
        self.makeDecoder = makeDecoder
    }

    /// A `JSONDecoder` that reads dates as ISO 8601 strings.
    @Sendable public static func defaultDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    /// Registers a type under its Swift name, and an array of it under `[Name]`.
    public mutating func register<T: Decodable & SendableMetatype>(_ type: T.Type) {
        let makeDecoder = makeDecoder
        decoders[SwiftTypeName.of(T.self)] = { bytes in ModelRegistry.decode(T.self, bytes, makeDecoder()) }
        decoders[SwiftTypeName.of([T].self)] = { bytes in ModelRegistry.decodeElements(T.self, bytes, makeDecoder()) }
    }

    /// How much of `contract` the decode check covers: the body types its responses name
    /// (`x-swift-type`) that have a registered model.
    public func coverage(of contract: Contract) -> DecodeCheckCoverage {
        var named: [String] = []
        for operation in contract.operations {
            for response in operation.responses {
                guard let type = response.swiftType ?? response.schema?.swiftType, !named.contains(type) else {
                    continue
                }
                named.append(type)
            }
        }
        let missing = named.filter { decoders[$0] == nil }
        if named.isEmpty || missing.count == named.count { return .none }
        return missing.isEmpty ? .full : .partial(withoutModel: missing)
    }

    /// The registered type names.
    public var typeNames: [String] {
        decoders.keys.sorted()
    }

    /// Decodes the bytes as the type registered under `typeName`.
    public func decode(_ bytes: [UInt8], as typeName: String) -> Outcome {
        guard let decode = decoders[typeName] else { return .notRegistered }
        return decode(bytes)
    }

    private static func decode<T: Decodable>(_ type: T.Type, _ bytes: [UInt8], _ decoder: JSONDecoder) -> Outcome {
        do {
            _ = try decoder.decode(type, from: Data(bytes))
            return .decoded
        } catch let error as DecodingError {
            return placed(describe(located(error, decoding: type, from: bytes, decoder)), decoder)
        } catch {
            return .failed(path: .root, message: "\(error)")
        }
    }

    /// Decodes an array body as `[T]` one element at a time: the same outcome as decoding the
    /// whole array (the first element that throws, its index leading the coding path), with
    /// the memory of one element instead of the decoder's copy of the whole body.
    private static func decodeElements<T: Decodable>(
        _ type: T.Type, _ bytes: [UInt8], _ decoder: JSONDecoder
    )
        -> Outcome
    {
        guard let ranges = JSONArraySplitter.elementRanges(in: bytes) else {
            return decode([T].self, bytes, decoder)
        }
        for (index, range) in ranges.enumerated() {
            do {
                _ = try decoder.decode(type, from: Data(bytes[range]))
            } catch let error as DecodingError {
                let error = located(error, decoding: type, from: Array(bytes[range]), decoder)
                guard case .failed(let path, let message) = placed(describe(error), decoder) else { continue }
                return .failed(path: JSONPath(components: [.index(index)] + path.components), message: message)
            } catch {
                return .failed(path: JSONPath(components: [.index(index)]), message: "\(error)")
            }
        }
        return .decoded
    }

    /// The error with a path when Foundation gave none: on Linux its decoder reports a number
    /// that does not fit (`1.5` for an `Int`) as pathless "not valid JSON", so the body is
    /// decoded again with a ``JSONValueDecoder`` to find the number.
    private static func located<T: Decodable>(
        _ error: DecodingError, decoding type: T.Type, from bytes: [UInt8], _ decoder: JSONDecoder
    ) -> DecodingError {
        JSONValueDecoder(userInfo: decoder.userInfo).locate(error, decoding: type, from: bytes)
    }

    /// The failure at the JSON keys the app's decoder reads, through its key strategy: under
    /// `convertFromSnakeCase` the coding key `temperatureC` is the JSON key `temperature_c`; a
    /// custom strategy is asked (``DecodingConventions``) and the message says so.
    static func placed(_ outcome: Outcome, _ decoder: JSONDecoder) -> Outcome {
        guard case .failed(let path, let message) = outcome else { return outcome }
        if case .useDefaultKeys = decoder.keyDecodingStrategy { return outcome }
        let conventions = DecodingConventions(decoder: decoder)
        let (jsonPath, unreached) = conventions.jsonPath(for: path)
        guard conventions.hasCustomKeyStrategy else { return .failed(path: jsonPath, message: message) }
        let note =
            unreached.isEmpty
            ? "custom key strategy (JSON keys as it reads them)"
            : "custom key strategy (no JSON key tried reaches "
                + unreached.map { "'\($0)'" }.joined(separator: ", ") + ": coding keys kept)"
        return .failed(path: jsonPath, message: note + ": " + message)
    }

    /// The coding path as a JSONPath and a one-line message naming the case.
    static func describe(_ error: DecodingError) -> Outcome {
        switch error {
        case .typeMismatch(let type, let context):
            return .failed(
                path: path(context.codingPath), message: "typeMismatch(\(type)): \(context.debugDescription)")
        case .valueNotFound(let type, let context):
            return .failed(
                path: path(context.codingPath), message: "valueNotFound(\(type)): \(context.debugDescription)")
        case .keyNotFound(let key, let context):
            return .failed(
                path: path(context.codingPath + [key]),
                message: "keyNotFound('\(key.stringValue)'): \(context.debugDescription)")
        case .dataCorrupted(let context):
            return .failed(path: path(context.codingPath), message: "dataCorrupted: \(context.debugDescription)")
        @unknown default:
            return .failed(path: .root, message: "\(error)")
        }
    }

    static func path(_ codingPath: [any CodingKey]) -> JSONPath {
        JSONPath(
            components: codingPath.map { key in
                if let index = key.intValue { return .index(index) }
                return .key(key.stringValue)
            })
    }
}
