import Foundation
import JSONKit

/// The parts of a WireMock-format stub mapping that contract verification needs: how the
/// request is matched (method, URL) and the response it serves.
///
/// This is a deliberately small reader; the stub server has the full loader.
struct StubMapping {
    /// The mapping file, and the mapping's index within it when the file holds several.
    let file: String
    let index: Int?
    let name: String?
    let variant: String?
    let method: String
    /// The URL path as written (`url` without its query, `urlPath` or `urlPathTemplate`), or nil
    /// when the mapping matches by pattern.
    let urlPath: String?
    let isTemplate: Bool
    let fault: String?
    let status: Int
    let contentType: String?
    let body: [UInt8]

    /// How a finding's `url` names the mapping: `Stubs/mappings/vets.json[2] (GET /api/vets/2)`.
    var label: String {
        let place = index.map { "\(file)[\($0)]" } ?? file
        return "\(place): \(method) \(urlPath ?? "(pattern)")"
    }
}

/// Reads `mappings/**/*.json` and `__files/` of a stub folder.
struct StubMappingReader {
    let root: String

    /// Every mapping (or those of the `only` files, relative to `mappings/`), and the problems
    /// that stopped some from being read.
    func read(only: Set<String>? = nil) -> (mappings: [StubMapping], errors: [VerificationError]) {
        let mappingsDirectory = root + "/mappings"
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: mappingsDirectory, isDirectory: &isDirectory),
            isDirectory.boolValue
        else {
            return (
                [], [VerificationError(operation: root, url: nil, message: FileProblem.notAStubFolder(root))]
            )
        }
        let files = (FileManager.default.enumerator(atPath: mappingsDirectory)?.compactMap { $0 as? String } ?? [])
            .filter { $0.hasSuffix(".json") && only?.contains($0) != false }.sorted()
        var mappings: [StubMapping] = []
        var errors: [VerificationError] = []
        for relative in files {
            let file = mappingsDirectory + "/" + relative
            do throws(StubReadError) {
                mappings += try readFile(file)
            } catch {
                errors.append(VerificationError(operation: file, url: file, message: error.message))
            }
        }
        return (mappings, errors)
    }

    struct StubReadError: Error {
        let message: String
    }

    private func readFile(_ file: String) throws(StubReadError) -> [StubMapping] {
        guard let data = FileManager.default.contents(atPath: file) else {
            throw StubReadError(message: FileProblem.unreadable(file))
        }
        let document: JSONValue
        do {
            document = try JSONValue(parsing: [UInt8](data))
        } catch {
            throw StubReadError(message: "not JSON: \(error)")
        }
        if let list = document["mappings"]?.arrayValue {
            var result: [StubMapping] = []
            for (index, mapping) in list.enumerated() {
                result.append(try readMapping(mapping, file: file, index: index, path: "$.mappings[\(index)]"))
            }
            return result
        }
        return [try readMapping(document, file: file, index: nil, path: "$")]
    }

    private func readMapping(
        _ mapping: JSONValue, file: String, index: Int?, path: String
    ) throws(StubReadError) -> StubMapping {
        guard case .object = mapping else { throw StubReadError(message: "\(path): expected a mapping object") }
        guard let request = mapping["request"]?.objectValue else {
            throw StubReadError(
                message:
                    "\(path).request: expected an object, found \(mapping["request"].map { $0.kind.rawValue } ?? "none")"
            )
        }
        let response = mapping["response"]?.objectValue ?? JSONObject()
        var urlPath: String?
        var isTemplate = false
        if let url = request["url"]?.stringValue {
            urlPath = String(url.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
        } else if let path = request["urlPath"]?.stringValue {
            urlPath = path
        } else if let template = request["urlPathTemplate"]?.stringValue {
            urlPath = template
            isTemplate = true
        }
        let status: Int
        switch response["status"] {
        case nil: status = 200
        case .int(let code)?: status = Int(code)
        case let other?:
            throw StubReadError(message: "\(path).response.status: expected an integer, found \(other.kind.rawValue)")
        }
        return StubMapping(
            file: file, index: index, name: mapping["name"]?.stringValue,
            variant: mapping["metadata"]?["variant"]?.stringValue,
            method: request["method"]?.stringValue?.uppercased() ?? "ANY", urlPath: urlPath, isTemplate: isTemplate,
            fault: response["fault"]?.stringValue, status: status, contentType: contentType(response["headers"]),
            body: try body(response, path: path))
    }

    private func contentType(_ headers: JSONValue?) -> String? {
        guard case .object(let object)? = headers else { return nil }
        for member in object.members where member.key.lowercased() == "content-type" {
            if let text = member.value.stringValue { return text }
            if let first = member.value.arrayValue?.first?.stringValue { return first }
        }
        return nil
    }

    private func body(_ response: JSONObject, path: String) throws(StubReadError) -> [UInt8] {
        if let json = response["jsonBody"] { return json.serializedBytes() }
        if let text = response["body"]?.stringValue { return Array(text.utf8) }
        if let base64 = response["base64Body"]?.stringValue {
            guard let data = Data(base64Encoded: base64) else {
                throw StubReadError(
                    message: "\(path).response.base64Body: expected base64, found '\(base64.prefix(20))'")
            }
            return [UInt8](data)
        }
        if let name = response["bodyFileName"]?.stringValue {
            let filesRoot = URL(fileURLWithPath: root + "/__files").standardizedFileURL.path
            let target = URL(fileURLWithPath: filesRoot + "/" + name).standardizedFileURL.path
            guard target.hasPrefix(filesRoot + "/") else {
                throw StubReadError(message: "\(path).response.bodyFileName: '\(name)' is outside __files/")
            }
            guard let data = FileManager.default.contents(atPath: target) else {
                throw StubReadError(message: "\(path).response.bodyFileName: cannot read '\(name)' in __files/")
            }
            return [UInt8](data)
        }
        return []
    }
}
