import JSONKit
import MockEngine
import StubFormat

/// A recording or snapshot specification in WireMock's JSON (`targetBaseUrl`, `persist`,
/// `repeatsAsScenarios`, `captureHeaders`, `extractBodyCriteria`, `outputFormat`), plus
/// petmock's `recordFailures` and `redactHeaders`. Fields petmock does not support are
/// listed as warnings, never silently ignored.
struct RecordingSpecification {
    var configuration: RecordingConfiguration
    /// `outputFormat: "IDS"`: answer with the mapping ids only.
    var outputIDs = false
    var warnings: [String] = []

    private static let unsupported = ["filters", "transformers", "transformerParameters", "captureAllHeaders"]

    /// Reads a specification over `defaults` (an empty body gives the defaults).
    init(json: JSONValue, defaults: RecordingConfiguration) throws(RecordingError) {
        configuration = defaults
        guard case .object(let object) = json else {
            throw .invalidSpecification(path: "$", expected: "an object", found: MappingDecoder.describe(json))
        }
        for member in object.members {
            let path = "$." + member.key
            switch member.key {
            case "targetBaseUrl": configuration.targetBaseURL = try Self.string(member.value, at: path)
            case "persist": configuration.persist = try Self.bool(member.value, at: path)
            case "repeatsAsScenarios": configuration.repeatsAsScenarios = try Self.bool(member.value, at: path)
            case "recordFailures": configuration.recordFailures = try Self.bool(member.value, at: path)
            case "redactHeaders":
                guard case .array(let names) = member.value else {
                    throw .invalidSpecification(
                        path: path, expected: "an array of header names", found: MappingDecoder.describe(member.value))
                }
                for (index, name) in names.enumerated() {
                    configuration.redactedHeaders.append(try Self.string(name, at: "\(path)[\(index)]"))
                }
            case "captureHeaders": try readCaptureHeaders(member.value, at: path)
            case "extractBodyCriteria": try readExtractCriteria(member.value, at: path)
            case "outputFormat":
                let format = try Self.string(member.value, at: path).uppercased()
                guard format == "FULL" || format == "IDS" else {
                    throw .invalidSpecification(path: path, expected: "'FULL' or 'IDS'", found: "'\(format)'")
                }
                outputIDs = format == "IDS"
            case "requestBodyPattern":
                if member.value["matcher"]?.stringValue != "auto" {
                    warnings.append("\(path): only the 'auto' body matcher is supported; it is used instead")
                }
            case _ where Self.unsupported.contains(member.key):
                warnings.append("\(path): not supported by petmock, ignored")
            default:
                warnings.append("\(path): unknown field '\(member.key)', ignored")
            }
        }
    }

    private mutating func readCaptureHeaders(_ value: JSONValue, at path: String) throws(RecordingError) {
        guard case .object(let headers) = value else {
            throw .invalidSpecification(path: path, expected: "an object", found: MappingDecoder.describe(value))
        }
        for header in headers.members {
            let caseInsensitive = header.value["caseInsensitive"]?.boolValue ?? false
            if configuration.isRedacted(header.key) {
                warnings.append("\(path).\(header.key): a redacted header is never captured")
                continue
            }
            configuration.capturedHeaders.append(CapturedHeader(header.key, caseInsensitive: caseInsensitive))
        }
    }

    private mutating func readExtractCriteria(_ value: JSONValue, at path: String) throws(RecordingError) {
        guard case .object(let criteria) = value else {
            throw .invalidSpecification(path: path, expected: "an object", found: MappingDecoder.describe(value))
        }
        if let text = criteria["textSizeThreshold"] {
            configuration.textBodyFileThreshold = try Self.size(text, at: path + ".textSizeThreshold")
        }
        if let binary = criteria["binarySizeThreshold"] {
            configuration.binaryBodyFileThreshold = try Self.size(binary, at: path + ".binarySizeThreshold")
        }
    }

    static func string(_ value: JSONValue, at path: String) throws(RecordingError) -> String {
        guard case .string(let text) = value else {
            throw .invalidSpecification(path: path, expected: "a string", found: MappingDecoder.describe(value))
        }
        return text
    }

    static func bool(_ value: JSONValue, at path: String) throws(RecordingError) -> Bool {
        guard case .bool(let flag) = value else {
            throw .invalidSpecification(path: path, expected: "true or false", found: MappingDecoder.describe(value))
        }
        return flag
    }

    /// A size in bytes: a whole number, or text such as `10240`, `2kb`, `1 MB` (1024-based).
    static func size(_ value: JSONValue, at path: String) throws(RecordingError) -> Int {
        let expected = "a size such as 10240 or '10kb'"
        if let number = value.intValue, number >= 0, let size = Int(exactly: number) { return size }
        guard case .string(let text) = value else {
            throw .invalidSpecification(path: path, expected: expected, found: MappingDecoder.describe(value))
        }
        let lower = text.lowercased().filter { $0 != " " }
        let digits = lower.prefix { $0.isASCII && $0.isNumber }
        let unit = lower.dropFirst(digits.count)
        let scale: Int? =
            switch unit {
            case "", "b": 1
            case "k", "kb": 1024
            case "m", "mb": 1024 * 1024
            case "g", "gb": 1024 * 1024 * 1024
            default: nil
            }
        guard let number = Int(digits), let scale, number <= Int.max / scale else {
            throw .invalidSpecification(path: path, expected: expected, found: "'\(text)'")
        }
        return number * scale
    }
}

extension RecordingError {
    /// The admin API's status for the error.
    var httpStatus: Int {
        switch self {
        case .invalidTarget, .invalidSpecification: 422
        case .alreadyRecording, .notRecording: 409
        case .unsafeStubFolder: 500
        }
    }
}
