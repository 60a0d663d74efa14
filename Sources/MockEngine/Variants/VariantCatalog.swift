import JSONKit
import StubFormat

/// Every variant a stub set offers: the file variants its mappings name, and the generated
/// forms, with the JSON fields its base bodies use (what `FIELD` can be).
///
/// ```swift
/// let catalog = VariantCatalog(mappings: try StubLoader(root: "Stubs").load().mappings)
/// print(catalog)     // the listing `petmock variants` prints
/// ```
public struct VariantCatalog: Sendable, Hashable, CustomStringConvertible {
    /// A variant defined by mapping files.
    public struct FileVariant: Sendable, Hashable {
        /// The name (`metadata.variant`).
        public var name: String
        /// The first `metadata.description` among its mappings.
        public var summary: String?
        /// The requests its mappings overlay, such as `GET /api/pets`.
        public var endpoints: [String]

        /// The entry as JSON: name, description and endpoints.
        var json: JSONValue {
            [
                "name": .string(name), "description": summary.map(JSONValue.string) ?? .null,
                "endpoints": .array(endpoints.map(JSONValue.string)),
            ]
        }

        /// The entry's line of the listing, its name padded to `width`.
        func line(width: Int) -> String {
            "  \(name.padding(to: width))\(endpoints.joined(separator: ", "))  \(summary ?? "")"
        }
    }

    /// The JSON fields of one documented answer of an operation (`petmock variants --openapi`).
    public struct OperationFields: Sendable, Hashable {
        /// The operation, such as `GET /items/{id}`.
        public var operation: String
        /// The documented status of the answer.
        public var status: String
        /// The field names its JSON body has, sorted (what `FIELD` can be for it).
        public var fields: [String]

        /// The entry of one answer: the field names of its body, if JSON, at any depth.
        public init(operation: String, status: String, body: JSONValue?) {
            self.operation = operation
            self.status = status
            var fields = Set<String>()
            if let body { DriftGenerator.collectKeys(body, into: &fields) }
            self.fields = fields.sorted()
        }
    }

    /// The file variants, by name.
    public var fileVariants: [FileVariant]
    /// The base mappings' example names (`metadata.example`, a Postman request's first
    /// example), by name: a request that names one is answered by that base mapping.
    public var baseExamples: [FileVariant]
    /// For a document, the JSON fields of each operation's answers, in the document's order;
    /// empty for a stub set.
    public var operations: [OperationFields]
    /// The field names found in the base mappings' JSON bodies, sorted.
    public var jsonFields: [String]
    /// The server-wide variant, when one is active.
    public var active: String?

    /// Builds the catalog of a set of mappings; `operations` lists a document's answers (the
    /// mappings are then those `petmock generate` writes for it, named examples as variants).
    public init(mappings: [StubMapping], active: String? = nil, operations: [OperationFields] = []) {
        self.operations = operations
        var byName: [String: FileVariant] = [:]
        var byExample: [String: FileVariant] = [:]
        var fields = Set<String>()
        for mapping in mappings {
            if let name = mapping.variant {
                Self.add(mapping, as: name, to: &byName)
                continue
            }
            if let body = Self.json(of: mapping.response.body) { DriftGenerator.collectKeys(body, into: &fields) }
            if let example = mapping.exampleName { Self.add(mapping, as: example, to: &byExample) }
        }
        fileVariants = byName.keys.sorted().compactMap { byName[$0] }
        baseExamples = byExample.keys.sorted().compactMap { byExample[$0] }
        jsonFields = fields.sorted()
        self.active = active
    }

    /// Adds `mapping`'s request to the entry `name` of `table` (its description the first one given).
    private static func add(_ mapping: StubMapping, as name: String, to table: inout [String: FileVariant]) {
        let endpoint = "\(mapping.request.method?.rawValue ?? "ANY") \(mapping.request.url?.value ?? "*")"
        var entry = table[name] ?? FileVariant(name: name, summary: nil, endpoints: [])
        entry.summary = entry.summary ?? mapping.variantDescription
        if !entry.endpoints.contains(endpoint) { entry.endpoints.append(endpoint) }
        table[name] = entry
    }

    /// The names of the file variants.
    public var names: [String] { fileVariants.map(\.name) }

    private static func json(of body: ResponseBody) -> JSONValue? {
        switch body {
        case .json(let value): value
        case .text(let text): try? JSONValue(parsing: text)
        default: nil
        }
    }

    /// The catalog as JSON, for `GET /__admin/petmock/variants`.
    public var json: JSONValue {
        var object = JSONObject()
        object["active"] = active.map(JSONValue.string) ?? .null
        object["fileVariants"] = .array(fileVariants.map(\.json))
        if !baseExamples.isEmpty { object["baseExamples"] = .array(baseExamples.map(\.json)) }
        object["generated"] = .array(
            Variant.generatedForms.map { ["form": .string($0.form), "description": .string($0.summary)] })
        object["fieldAddressing"] = .string(Variant.fieldAddressing.joined(separator: " "))
        object["jsonFields"] = .array(jsonFields.map(JSONValue.string))
        if !operations.isEmpty {
            object["operations"] = .array(
                operations.map { entry in
                    [
                        "operation": .string(entry.operation), "status": .string(entry.status),
                        "fields": .array(entry.fields.map(JSONValue.string)),
                    ]
                })
        }
        return .object(object)
    }

    /// The listing `petmock variants` prints.
    public var description: String {
        var lines: [String] = []
        if let active { lines += ["Active server-wide: \(active)", ""] }
        lines.append(
            operations.isEmpty
                ? "File variants (mappings with metadata.variant):" : "Named examples (Prefer: example=NAME):")
        if fileVariants.isEmpty { lines.append("  (none)") }
        let width = max(20, ((fileVariants + baseExamples).map(\.name.count).max() ?? 0) + 2)
        lines += fileVariants.map { $0.line(width: width) }
        if !baseExamples.isEmpty {
            lines += ["", "Base examples (the name answers with its base mapping, metadata.example):"]
            lines += baseExamples.map { $0.line(width: width) }
        }
        lines += ["", "Generated variants (any stub, no file needed):"]
        for form in Variant.generatedForms {
            lines.append("  \(form.form.padding(to: width))\(form.summary)")
        }
        lines += [""] + Variant.fieldAddressing
        if !operations.isEmpty {
            lines.append("JSON fields per operation and documented status (FIELD for its answers):")
            for entry in operations {
                let fields = entry.fields.isEmpty ? "(no JSON fields)" : entry.fields.joined(separator: ", ")
                lines.append("  \(entry.operation) \(entry.status): \(fields)")
            }
        } else if !jsonFields.isEmpty {
            lines.append("JSON fields in the base stubs: \(jsonFields.joined(separator: ", "))")
        }
        lines += [
            "",
            "Per request: X-Petmock-Variant: NAME, Prefer: example=NAME or code=NNN, "
                + "or the query's __example=NAME or __code=NNN",
            "Server-wide: petmock serve --variant NAME, variant: NAME in the configuration, "
                + "or PUT /__admin/petmock/variant {\"variant\": \"NAME\"}",
        ]
        return lines.joined(separator: "\n")
    }
}
