import HTTPCore
import JSONKit

extension PostmanStubBuilder {
    /// The helper in force under `value` (an `auth` at `path`), given the parent's: its own, the
    /// parent's (`inherit`, or none written) or none (`noauth`). Each helper the stubs do not
    /// require is a warning, once where it is defined.
    mutating func auth(_ value: JSONValue?, at path: JSONPath, parent: PostmanAuth?) -> PostmanAuth? {
        guard let value else { return parent }
        let requiring = requiresAuth
        let reading = PostmanAuth.read(value, at: path) { text, at in
            // A helper not required is not used: its variables need no value.
            requiring ? resolved(text, at: at) : variables.resolve(text).text
        }
        switch reading {
        case .inherit:
            return parent
        case .none:
            return nil
        case .auth(let auth):
            if requiresAuth { return auth }
            problems.append(
                StubProblem(
                    .warning, .authNotRequired, file: source, path: path.description,
                    detail: "\(auth.summary) is not required: the stubs answer without it, as Postman's mock servers "
                        + "do (--postman-auth on requires it)"))
            return nil
        case .unchecked(let type, let reason):
            problems.append(
                StubProblem(
                    .warning, .authNotRequired, file: source, path: path.description,
                    detail: "'\(type)' auth is not required: \(reason); the requests under it answer without it"))
            return nil
        }
    }

    /// A warning naming `owner` (the collection, a folder, a request) when its `event` holds a
    /// script that does something: petmock runs none.
    mutating func noteScripts(_ value: JSONValue?, at path: JSONPath, owner: String) {
        guard let value, value != .null else { return }
        guard let events = value.arrayValue else {
            problems.append(
                StubProblem(
                    .warning, .wrongType, file: source, path: path.description, expected: "an array of scripts",
                    found: MappingDecoder.describe(value) + "; left out"))
            return
        }
        var kinds: [String] = []
        for event in events where Self.hasCode(event["script"]?["exec"]) {
            let kind = event["listen"]?.stringValue ?? "unnamed"
            if !kinds.contains(kind) { kinds.append(kind) }
        }
        guard !kinds.isEmpty else { return }
        let named = kinds.map { "'\($0)'" }.joined(separator: " and ")
        let scripts = kinds.count == 1 ? "a \(named) script" : "\(named) scripts"
        problems.append(
            StubProblem(
                .warning, .scriptNotRun, file: source, path: path.description,
                detail: "\(owner) has \(scripts), which petmock does not run: the stubs answer the saved examples "
                    + "as they are"))
    }

    /// Whether a script's `exec` (lines, or one text) holds anything but blanks.
    private static func hasCode(_ exec: JSONValue?) -> Bool {
        switch exec {
        case .string(let text)?: !text.allSatisfy(\.isWhitespace)
        case .array(let lines)?: lines.contains { hasCode($0) }
        default: false
        }
    }

    /// The credential `auth` asks for, added to a mapping of its request (unless the example's
    /// request already names that field or parameter).
    static func require(_ auth: PostmanAuth, in pattern: inout RequestPattern) {
        switch auth.place {
        case .header:
            guard !pattern.headers.contains(where: { $0.name.equalsIgnoringASCIICase(auth.name) }) else { return }
            pattern.headers.append(NamedMatcher(auth.name, auth.value))
        case .query:
            guard !pattern.queryParameters.contains(where: { $0.name == auth.name }) else { return }
            pattern.queryParameters.append(NamedMatcher(auth.name, auth.value))
        }
    }

    /// The 401 of a request whose `auth` is required, for each method and URL its examples
    /// match: any request there without the credential (absent, or another value). The
    /// request's own 401 example answers it when there is one (that of the same method and URL
    /// first); else a problem document naming the helper.
    mutating func refusals(of auth: PostmanAuth, for made: [StubMapping], title: String, at path: JSONPath) {
        var seen: Set<RequestPattern> = []
        for mapping in made {
            var pattern = RequestPattern(method: mapping.request.method)
            pattern.url = mapping.request.url
            switch auth.place {
            case .header: pattern.headers = [NamedMatcher(auth.name, .not(auth.value))]
            case .query: pattern.queryParameters = [NamedMatcher(auth.name, .not(auth.value))]
            }
            guard seen.insert(pattern).inserted else { continue }
            let saved =
                made.first { $0.request == mapping.request && $0.response.status == 401 }
                ?? made.first { $0.response.status == 401 }
            var headers: HTTPHeaders = ["Content-Type": "application/problem+json"]
            if let challenge = auth.challenge { headers.add(name: "WWW-Authenticate", value: challenge) }
            let body: JSONObject = [
                "type": "urn:petmock:problem:unauthorized", "title": "Unauthorized", "status": 401,
                "detail": .string("The Postman request '\(title)' needs its \(auth.summary)"),
            ]
            let name = title + " (401 without its \(auth.type) auth)"
            var generator = SplitMix64(seed: name + " " + path.description + " \(seen.count)")
            mappings.append(
                StubMapping(
                    id: Identifiers.uuid(high: generator.next(), low: generator.next()), name: name, request: pattern,
                    response: saved?.response
                        ?? ResponseDefinition(status: 401, headers: headers, body: .json(.object(body))),
                    metadata: [
                        "postman": [
                            "request": .string(title), "auth": .string(auth.type),
                            "defined": .string(auth.path.description),
                        ]
                    ]))
        }
    }
}
