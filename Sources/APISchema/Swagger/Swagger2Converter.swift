import JSONKit

/// Converts a Swagger 2.0 document (its JSON value) into the equivalent OpenAPI 3.0 document,
/// which ``OpenAPIReader`` then reads like any other: one reader, one model.
///
/// `definitions`, `parameters` and `responses` become `components` (every `$ref` rewritten);
/// `in: body` and `in: formData` parameters become request bodies (one media type per
/// `consumes`, `type: file` a binary string); `produces` gives each response's media types;
/// `host`, `basePath` and `schemes` become `servers`; `collectionFormat` becomes `style` and
/// `explode`; `securityDefinitions` become `securitySchemes`; `x-nullable` becomes `nullable`;
/// response `examples` by media type become content examples. What has no 3.0 counterpart is
/// a warning naming its JSON pointer in the 2.0 document, never dropped silently. Errors name
/// paths in the 2.0 document.
public struct Swagger2Converter: Sendable {
    /// The 3.0 document, the warnings, and where each converted part came from.
    public struct Conversion: Sendable {
        /// The OpenAPI 3.0 document.
        public var document: JSONValue
        /// What was not converted, each naming its JSON pointer in the 2.0 document.
        public var warnings: [String]
        /// Paths in the 3.0 document and the 2.0 path each came from, for naming 2.0 places in errors.
        var origins: [(converted: [JSONPath.Component], original: JSONPath)]

        /// A path in the converted document as the path in the 2.0 document it came from.
        public func originalPath(_ path: JSONPath) -> JSONPath {
            var best: (length: Int, original: JSONPath)?
            for origin in origins where origin.converted.count <= path.components.count {
                guard Array(path.components.prefix(origin.converted.count)) == origin.converted else { continue }
                if origin.converted.count >= best?.length ?? 0 { best = (origin.converted.count, origin.original) }
            }
            guard let best else { return path }
            return JSONPath(components: best.original.components + path.components.dropFirst(best.length))
        }

        /// A path in the converted document, as text, as the 2.0 path it came from, as text.
        public func originalPath(_ text: String) -> String {
            guard let path = try? JSONPath(text), path.isDefinite else { return text }
            return originalPath(path).description
        }
    }

    /// Schemas (and `$ref` chains) nest at most this deep, as the reader allows.
    static let depthLimit = 64

    /// A converted `$ref` as it was written in 2.0: `#/components/schemas/X` as `#/definitions/X`.
    public static func originalReference(_ reference: String) -> String {
        let prefixes = [
            ("#/components/schemas/", "#/definitions/"), ("#/components/parameters/", "#/parameters/"),
            ("#/components/responses/", "#/responses/"),
        ]
        for (new, old) in prefixes where reference.hasPrefix(new) { return old + reference.dropFirst(new.count) }
        return reference
    }

    /// Creates a converter.
    public init() {}

    /// Whether a document is Swagger 2.0: an object with a `swagger` member.
    public static func isSwagger2(_ document: JSONValue) -> Bool {
        guard case .object(let object) = document else { return false }
        return object["swagger"] != nil
    }

    /// Converts a 2.0 document; `source` names it in errors.
    public func convert(_ document: JSONValue, source: String) throws(ContractError) -> Conversion {
        var state = Swagger2ConversionState(root: OpenAPINode(value: document, path: .root, file: source))
        let converted = try state.convertDocument()
        return Conversion(document: converted, warnings: state.warnings, origins: state.origins)
    }
}
