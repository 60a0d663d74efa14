import HTTPHandlerKit
import JSONKit
import MockEngine
import StubFormat

/// `POST /__admin/mappings/remove` and `POST /__admin/mappings/import`, WireMock's shapes.
extension AdminRouter {
    /// One mapping, or `{"mappings": [...]}` (WireMock's `StubMappingOrMappings`), each
    /// removed by its id or, failing that, by its request pattern. All are read first: a bad
    /// one removes nothing.
    func removeMappingLike(_ body: [UInt8]) -> HTTPResponse {
        switch Self.parse(body) {
        case .failure(let failure): return failure.response
        case .success(let json):
            let elements: [JSONValue]
            if case .array(let listed)? = json["mappings"], json["request"] == nil {
                elements = listed
            } else {
                elements = [json]
            }
            do throws(AdminError) {
                var examples: [(mapping: StubMapping, byID: Bool)] = []
                for element in elements {
                    do {
                        // A mapping without an id gets one when decoded: only a written id is looked up.
                        examples.append((try StubMapping(json: element), element["id"]?.stringValue != nil))
                    } catch {
                        throw Admin.adminError(error)
                    }
                }
                for example in examples { try admin.removeMapping(like: example.mapping, matchByID: example.byID) }
                return Self.json([:])
            } catch {
                return Self.failure(error)
            }
        }
    }

    /// `GET /__admin/mappings/unmatched` (`{"mappings": [...], "meta": {"total": n}}`) and
    /// `DELETE` (removes them): the mappings no journaled request was answered by.
    func unmatchedMappings(remove: Bool) -> HTTPResponse {
        let unmatched = admin.unmatchedMappings()
        guard remove else {
            return Self.json([
                "mappings": .array(unmatched.map(\.json)), "meta": ["total": .int(Int64(unmatched.count))],
            ])
        }
        do throws(AdminError) {
            try admin.removeMappings(ids: unmatched.map(\.id))
            return Self.json([:])
        } catch {
            return Self.failure(error)
        }
    }

    func importMappings(_ body: [UInt8]) -> HTTPResponse {
        switch Self.parse(body) {
        case .failure(let failure): return failure.response
        case .success(let json):
            var decoder = MappingDecoder(file: "")
            let (mappings, options) = Self.decodeImport(json, &decoder)
            let errors = decoder.problems.filter(\.isError)
            guard errors.isEmpty, let mappings, let options else {
                return Self.failure(.invalidMapping(errors))
            }
            do throws(AdminError) {
                try admin.importMappings(mappings, options: options)
                return Self.json([:])
            } catch {
                return Self.failure(error)
            }
        }
    }

    /// `{"mappings": [...], "importOptions": {"duplicatePolicy": "OVERWRITE" | "IGNORE",
    /// "deleteAllNotInImport": true}}`; any other field is a problem naming it.
    static func decodeImport(
        _ json: JSONValue, _ decoder: inout MappingDecoder
    ) -> ([StubMapping]?, Admin.ImportOptions?) {
        guard let object = json.objectValue else {
            decoder.invalid(.root, expected: "an object with 'mappings'", found: json.kind.description)
            return (nil, nil)
        }
        for member in object.members where member.key != "mappings" && member.key != "importOptions" {
            decoder.invalid(
                JSONPath.root.appending(key: member.key), expected: "'mappings' or 'importOptions'",
                found: "'\(member.key)'", kind: .unknownField)
        }
        guard case .array(let elements)? = object["mappings"] else {
            decoder.invalid(JSONPath.root.appending(key: "mappings"), expected: "an array of mappings", found: "none")
            return (nil, nil)
        }
        var mappings: [StubMapping] = []
        for (index, element) in elements.enumerated() {
            if let mapping = decoder.decodeMapping(
                element, at: JSONPath.root.appending(key: "mappings").appending(index: index))
            {
                mappings.append(mapping)
            }
        }
        var options = Admin.ImportOptions()
        let optionsPath = JSONPath.root.appending(key: "importOptions")
        if let value = object["importOptions"] {
            guard let fields = value.objectValue else {
                decoder.invalid(optionsPath, expected: "an object", found: value.kind.description)
                return (nil, nil)
            }
            for member in fields.members {
                let here = optionsPath.appending(key: member.key)
                switch (member.key, member.value) {
                case ("duplicatePolicy", .string("OVERWRITE")): options.overwrite = true
                case ("duplicatePolicy", .string("IGNORE")): options.overwrite = false
                case ("deleteAllNotInImport", .bool(let flag)): options.deleteAllNotInImport = flag
                case ("duplicatePolicy", _):
                    decoder.invalid(here, expected: "OVERWRITE or IGNORE", found: "\(member.value)")
                case ("deleteAllNotInImport", _):
                    decoder.invalid(here, expected: "true or false", found: "\(member.value)")
                default:
                    decoder.invalid(
                        here, expected: "duplicatePolicy or deleteAllNotInImport", found: "'\(member.key)'",
                        kind: .unknownField)
                }
            }
        }
        return (mappings, options)
    }
}

/// `POST /__admin/mappings/find-by-metadata` and `remove-by-metadata`: the body is one matcher
/// (`{"matchesJsonPath": {"expression": "$.team", "equalTo": "pets"}}`) applied to each
/// mapping's `metadata`.
extension AdminRouter {
    func byMetadata(_ body: [UInt8], remove: Bool) -> HTTPResponse {
        switch Self.parse(body) {
        case .failure(let failure): return failure.response
        case .success(let json):
            var decoder = MappingDecoder(file: "")
            guard let matcher = decoder.matcher(json, at: .root) else {
                return Self.failure(.invalidMapping(decoder.problems.filter(\.isError)))
            }
            do throws(AdminError) {
                let found = try admin.mappings(withMetadataMatching: matcher)
                guard remove else {
                    return Self.json([
                        "mappings": .array(found.map(\.json)), "meta": ["total": .int(Int64(found.count))],
                    ])
                }
                try admin.removeMappings(ids: found.map(\.id))
                return Self.json([:])
            } catch {
                return Self.failure(error)
            }
        }
    }
}
