import HTTPCore
import JSONKit

/// Walks a collection's items (folders nested in `item`) and turns each saved example into a
/// mapping (``PostmanStubBuilder+Example.swift``), collecting the problems.
struct PostmanStubBuilder {
    let source: String
    var variables = PostmanVariables()
    var problems: [StubProblem] = []
    /// The unresolved-variable warnings given, each once.
    var warned: Set<StubProblem> = []
    var requestCount = 0
    /// The mappings made, in the collection's order.
    var mappings: [StubMapping] = []
    /// The variant names taken per request pattern; the first mapping of a pattern is its base.
    var variantNames: [RequestPattern: Set<String>] = [:]
    /// Whether each request's auth helper is required (its credential matched, a 401 without it).
    var requiresAuth = false

    /// How deep folders are walked (the JSON parser's own depth limit bounds it too).
    static let maxFolderDepth = 64

    init(source: String) {
        self.source = source
    }

    /// Walks `items`, `auth` the helper in force above them.
    mutating func walk(_ items: [JSONValue], at path: JSONPath, folders: [String], auth: PostmanAuth?) {
        for (index, item) in items.enumerated() {
            let here = path.appending(index: index)
            let name = item["name"]?.stringValue ?? "item \(index + 1)"
            if let children = item["item"] {
                guard let array = children.arrayValue else {
                    problems.append(
                        StubProblem(
                            .warning, .wrongType, file: source, path: here.appending(key: "item").description,
                            expected: "an array of items",
                            found: MappingDecoder.describe(children)
                                + "; the folder '\(label(folders + [name]))' is left out"))
                    continue
                }
                guard folders.count < Self.maxFolderDepth else {
                    problems.append(
                        StubProblem(
                            .warning, .invalidValue, file: source, path: here.description,
                            detail: "folders nested deeper than \(Self.maxFolderDepth); '\(label(folders + [name]))' "
                                + "is left out"))
                    continue
                }
                let title = label(folders + [name])
                noteScripts(item["event"], at: here.appending(key: "event"), owner: "the folder '\(title)'")
                let inner = self.auth(item["auth"], at: here.appending(key: "auth"), parent: auth)
                walk(array, at: here.appending(key: "item"), folders: folders + [name], auth: inner)
            } else if item["request"] != nil {
                requestCount += 1
                noteScripts(
                    item["event"], at: here.appending(key: "event"), owner: "the request '\(label(folders + [name]))'")
                let own = self.auth(
                    item["request"]?["auth"], at: here.appending(key: "request").appending(key: "auth"), parent: auth)
                request(item, at: here, folders: folders, name: name, auth: own)
            } else {
                problems.append(
                    StubProblem(
                        .warning, .missingField, file: source, path: here.description,
                        detail: "'\(label(folders + [name]))' is neither a folder ('item') nor a request "
                            + "('request'); left out"))
            }
        }
    }

    /// The stubs of one request's examples.
    private mutating func request(
        _ item: JSONValue, at path: JSONPath, folders: [String], name: String, auth: PostmanAuth?
    ) {
        let title = label(folders + [name])
        let examples: [JSONValue]
        switch item["response"] {
        case nil, .null?:
            examples = []
        case .array(let array)?:
            examples = array
        case let other?:
            problems.append(
                StubProblem(
                    .warning, .wrongType, file: source, path: path.appending(key: "response").description,
                    expected: "an array of saved examples",
                    found: MappingDecoder.describe(other) + "; the request '\(title)' has no stub"))
            return
        }
        guard !examples.isEmpty else {
            problems.append(
                StubProblem(
                    .warning, .noExample, file: source, path: path.description,
                    detail: "the request '\(title)' has no saved example, so no stub"))
            return
        }
        let request = item["request"] ?? .null
        var made: [StubMapping] = []
        for (index, example) in examples.enumerated() {
            let here = path.appending(key: "response").appending(index: index)
            guard example.objectValue != nil else {
                problems.append(
                    StubProblem(
                        .warning, .wrongType, file: source, path: here.description, expected: "an object",
                        found: MappingDecoder.describe(example) + "; an example of '\(title)' is left out"))
                continue
            }
            let exampleName = example["name"]?.stringValue ?? "example \(index + 1)"
            let context = ExampleContext(
                request: request, requestPath: path.appending(key: "request"), example: example, examplePath: here,
                folders: folders, requestName: name, exampleName: exampleName)
            guard var mapping = mapping(for: context) else { continue }
            if let auth { Self.require(auth, in: &mapping.request) }
            assignVariant(&mapping, exampleName: exampleName)
            mappings.append(mapping)
            made.append(mapping)
        }
        if let auth { refusals(of: auth, for: made, title: title, at: path) }
    }

    /// The first mapping of a request pattern is its base, which its example's name names
    /// (`metadata.example`, for `Prefer: example=`); the next ones are file variants named after
    /// their examples (spaces and colons as `-`, made unique within the pattern, the base's
    /// name included).
    private mutating func assignVariant(_ mapping: inout StubMapping, exampleName: String) {
        let stem = Self.variantName(exampleName)
        guard var taken = variantNames[mapping.request] else {
            variantNames[mapping.request] = [stem]
            mapping.exampleName = stem
            return
        }
        var name = stem
        var counter = 2
        while taken.contains(name) {
            name = "\(stem)-\(counter)"
            counter += 1
        }
        taken.insert(name)
        variantNames[mapping.request] = taken
        mapping.variant = name
        mapping.isChosenByAccept = true
        mapping.metadata?["description"] = .string("Postman example '\(exampleName)'")
    }

    /// A variant name from an example's name, one that `X-Petmock-Variant` and `Prefer:
    /// example=` both carry: letters, digits, `-`, `_` and `.` kept, each run of anything else
    /// one `-` (`Rex, adopted` is `Rex-adopted`); a name petmock reserves for a generated
    /// variant, or an empty one, gets `example-` before it.
    static func variantName(_ exampleName: String) -> String {
        var name = ""
        for character in exampleName {
            if character.isLetter || character.isNumber || character == "-" || character == "_" || character == "." {
                name.append(character)
            } else if !name.isEmpty && !name.hasSuffix("-") {
                name.append("-")
            }
        }
        while name.hasSuffix("-") { name.removeLast() }
        if name.isEmpty || StubMapping.reservedVariantNames.contains(name) {
            name = "example" + (name.isEmpty ? "" : "-" + name)
        }
        return name
    }

    /// Folder path and name as people read them: `Pets / Get a pet`.
    func label(_ names: [String]) -> String {
        names.joined(separator: " / ")
    }

    func finish() -> PostmanStubSet {
        PostmanStubSet(mappings: mappings, problems: problems, requestCount: requestCount)
    }
}
