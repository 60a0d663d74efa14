import APISchema
import HTTPCore
import HTTPHandlerKit
import MockEngine
import Platform
import StubFormat

/// The WireMock stub folder that answers as an ``OpenAPIResponder`` does, made from its own
/// answers (`petmock generate`): for every operation a mapping per documented status, and one
/// per named example as a file variant, with their bodies in `__files/`.
///
/// A plain request gets the status the document answers with no `Prefer` (the default
/// status's mappings have the highest priorities); `Prefer: code=NNN` reaches the others
/// (petmock picks the best stub with that status); `Prefer: example=NAME` reaches a named
/// example (a mapping with `metadata.variant` NAME; for a status other than the default one,
/// the request's `Prefer` must also ask for `code=NNN`, and such mappings go first among the
/// variant's). Within each of these, operations keep the responder's order (a literal path
/// segment before a parameter), as priorities.
///
/// ```swift
/// let stubs = DocumentStubSet(responder: OpenAPIResponder(contract: contract))
/// try stubs.write(to: "Stubs")
/// ```
package struct DocumentStubSet: Sendable {
    /// One mapping and its body.
    package struct Stub: Sendable {
        /// The mapping, its body a file of `__files/` when the answer has a body.
        package var mapping: StubMapping
        /// The body file's name under `__files/`, nil for an answer with no body.
        package var bodyFileName: String?
        /// The body's bytes, as the responder answers them.
        package var body: [UInt8]
        /// The operation answered (`GET /items/{id}`).
        package var operation: String
        /// The documented status this mapping answers with, as the document writes it.
        package var status: String
        /// The named example, for a variant mapping.
        package var example: String?
    }

    /// The mappings, in the responder's order of operations.
    package private(set) var stubs: [Stub] = []
    /// What the document has that no mapping answers, one sentence each.
    package private(set) var notes: [String] = []

    /// The mappings answering as `responder` does.
    package init(responder: OpenAPIResponder) {
        let operations = responder.routes.map(\.operation)
        var fileNames = Set<String>()
        for (index, operation) in operations.enumerated() {
            let url = Self.urlPattern(responder.basePath + operation.path)
            let statuses = Self.statuses(of: operation, notes: &notes)
            for status in statuses {
                let isDefault = status == operation.defaultStatus
                let code = isDefault ? nil : Int(status)
                let priority = 1 + index + (isDefault ? 0 : operations.count)
                let base = responder.answer(operation, preference: Preference(code: code), accept: nil)
                stubs.append(
                    Self.stub(
                        base.response, operation: operation, status: status, example: nil, url: url,
                        priority: priority, fileNames: &fileNames))
                let response = operation.responses.first { $0.status == status }
                for name in response?.namedExamples.map(\.name) ?? [] {
                    guard Self.isVariantName(name) else {
                        notes.append(
                            "\(operation.name) \(status): the example '\(name)' is not written: it cannot be a "
                                + "variant name (a reserved name, a space or a colon)")
                        continue
                    }
                    let answer = responder.answer(
                        operation, preference: Preference(code: code, example: name), accept: nil)
                    // Among the variant's mappings, those that also require `code=NNN` go first.
                    var stub = Self.stub(
                        answer.response, operation: operation, status: status, example: name, url: url,
                        priority: 1 + index + (isDefault ? operations.count : 0), fileNames: &fileNames)
                    // `Prefer: example=` selects the variant before `code=` is read: the code is matched here.
                    if let code { stub.mapping.request.headers = [NamedMatcher("Prefer", .contains("code=\(code)"))] }
                    stubs.append(stub)
                }
            }
        }
    }

    /// Writes every mapping (`mappings/NAME-ID.json`, one a file) and body file through
    /// ``StubFolderWriter``, replacing files of the same names and leaving others alone.
    package func write(to root: String) throws(StubWriteError) {
        let bodyFiles = stubs.compactMap { stub in stub.bodyFileName.map { (name: $0, bytes: stub.body) } }
        try StubFolderWriter(folder: StubFolder(root: root)).write(mappings: stubs.map(\.mapping), bodyFiles: bodyFiles)
    }

    /// The documented statuses a mapping is written for: the default one first, then those
    /// `Prefer: code=NNN` can ask for (`default` and `2XX` it cannot: they are noted).
    private static func statuses(of operation: ContractOperation, notes: inout [String]) -> [String] {
        var statuses = [operation.defaultStatus]
        for response in operation.responses where response.status != operation.defaultStatus {
            guard let code = Int(response.status), (100...599).contains(code) else {
                notes.append(
                    "\(operation.name): the response '\(response.status)' is not written: Prefer: code=NNN cannot "
                        + "ask for it")
                continue
            }
            statuses.append(response.status)
        }
        return statuses
    }

    private static func stub(
        _ response: HTTPResponse, operation: ContractOperation, status: String, example: String?, url: URLPattern,
        priority: Int, fileNames: inout Set<String>
    ) -> Stub {
        let label = "\(operation.name) \(status)" + (example.map { " example \($0)" } ?? "")
        var bodyFileName: String?
        if !response.body.isEmpty {
            let stem = slug(operation.name) + "-" + slug(status) + (example.map { "-" + slug($0) } ?? "")
            let ext = fileExtension(response.headers.first(name: "Content-Type"))
            var name = "\(stem).\(ext)"
            var counter = 2
            while fileNames.contains(name) {
                name = "\(stem)-\(counter).\(ext)"
                counter += 1
            }
            fileNames.insert(name)
            bodyFileName = name
        }
        var generator = SplitMix64(seed: label)
        var mapping = StubMapping(
            id: Identifiers.uuid(high: generator.next(), low: generator.next()), name: label,
            request: RequestPattern(method: operation.method, url: url),
            response: ResponseDefinition(
                status: response.status.code, headers: response.headers,
                body: bodyFileName.map(ResponseBody.file) ?? .none),
            priority: priority)
        if let example {
            mapping.variant = example
            mapping.metadata?["description"] = .string("Prefer: example=\(example) of \(operation.name) \(status)")
        }
        return Stub(
            mapping: mapping, bodyFileName: bodyFileName, body: response.body, operation: operation.name,
            status: status, example: example)
    }

    /// Whether a named example can be a file variant: a plain name petmock does not reserve.
    package static func isVariantName(_ name: String) -> Bool {
        guard !StubMapping.reservedVariantNames.contains(name) else { return false }
        return (try? Variant(name)) == .named(name)
    }

    /// A `urlPathTemplate` where petmock's templates match as the responder does (every
    /// segment with a brace is one whole `{name}`), else a `urlPathPattern` of the same paths.
    package static func urlPattern(_ path: String) -> URLPattern {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        let isTemplate =
            path.hasPrefix("/")
            && segments.allSatisfy { segment in
                guard segment.contains("{") || segment.contains("}") else { return true }
                let inner = segment.dropFirst().dropLast()
                return segment.hasPrefix("{") && segment.hasSuffix("}") && !inner.isEmpty
                    && !inner.contains("{") && !inner.contains("}")
            }
        if isTemplate { return .urlPathTemplate(path) }
        let pattern = segments.map { segment in
            segment.hasPrefix("{") && segment.hasSuffix("}") ? "[^/]+" : RegexLiteral.escaped(segment)
        }
        return .urlPathPattern("/" + pattern.joined(separator: "/"))
    }

    /// Letters, digits and dashes, lower-cased.
    private static func slug(_ text: String) -> String {
        var slug = ""
        for character in text.lowercased() {
            if character.isASCII && (character.isLetter || character.isNumber) {
                slug.append(character)
            } else if !slug.hasSuffix("-") && !slug.isEmpty {
                slug.append("-")
            }
        }
        while slug.hasSuffix("-") { slug.removeLast() }
        return String((slug.isEmpty ? "root" : slug).prefix(80))
    }

    private static func fileExtension(_ mediaType: String?) -> String {
        let type = (mediaType ?? "").lowercased()
        if type.contains("json") { return "json" }
        if type.contains("xml") { return "xml" }
        if type.contains("html") { return "html" }
        if type.hasPrefix("text/") { return "txt" }
        return "bin"
    }
}
