import ArgumentKit
import HTTPCore
import Platform
import StubFormat
import StubServerKit

/// The Postman collection `--postman FILE` names (with `--postman-environment FILE`), read the
/// one way `serve`, `generate` and `variants` read it: its stubs, with the problems written to
/// standard error, or nil with the error written there.
struct PostmanInput: Sendable {
    static let collection = Argument<String?>.option(
        "postman", value: "FILE",
        help: "A Postman collection (v2.0 or v2.1): each request's saved examples become stubs.")
    static let environment = Argument<String?>.option(
        "postman-environment", value: "FILE",
        help: "A Postman environment export: values for the collection's {{variables}} (needs --postman).")
    static let auth = Argument<Toggle>.choice(
        "postman-auth", value: "on|off", default: .off,
        help: "Require the credential each request's auth helper adds (bearer, basic, apikey, oauth2), "
            + "answering a 401 without it; off, the stubs answer without it, as Postman's mock servers do "
            + "(needs --postman).")

    /// The options every command that reads a collection takes.
    static let arguments: [any ArgumentDeclaration] = [collection, environment, auth]

    /// The collection file.
    let file: String
    /// The environment file, if any.
    let environmentFile: String?
    /// Whether the stubs require each request's auth (`--postman-auth on`).
    var requiresAuth = false

    /// The collection the arguments name, or nil without `--postman`; refuses
    /// `--postman-environment` without `--postman`.
    static func from(_ arguments: ParsedArguments) throws(ArgumentError) -> PostmanInput? {
        try checkArguments(arguments)
        guard let file = arguments[Self.collection] else { return nil }
        return PostmanInput(
            file: file, environmentFile: arguments[Self.environment], requiresAuth: arguments[Self.auth] == .on)
    }

    /// Refuses `--postman-environment` without `--postman`.
    static func checkArguments(_ arguments: ParsedArguments) throws(ArgumentError) {
        if let environment = arguments[Self.environment], arguments[Self.collection] == nil {
            throw .invalidValue(
                option: "--postman-environment", value: environment, expected: "--postman FILE beside it")
        }
        if arguments.isPresent(Self.auth) && arguments[Self.collection] == nil {
            throw .invalidValue(
                option: "--postman-auth", value: arguments[Self.auth].rawValue, expected: "--postman FILE beside it")
        }
    }

    /// The files read: the collection, then the environment.
    var files: [String] { [file] + (environmentFile.map { [$0] } ?? []) }

    /// The stubs of the collection, its problems printed (`file: warning: $.item[0]: ...`).
    func read() -> PostmanStubSet? {
        switch stubs() {
        case .success(let set):
            for problem in set.problems { writeError(problem.description) }
            return set
        case .failure(let error):
            // The description escapes what it quotes from the files.
            writeError("petmock: error: \(error)")
            return nil
        }
    }

    /// The stubs of the collection, the environment's problems among the set's, or why the
    /// files cannot be read; nothing printed.
    func stubs() -> Result<PostmanStubSet, PostmanCollectionError> {
        do throws(PostmanCollectionError) {
            let collection = try PostmanCollection(bytes: Self.readFile(file), source: file)
            var environment: PostmanEnvironment?
            if let environmentFile {
                environment = try PostmanEnvironment(bytes: Self.readFile(environmentFile), source: environmentFile)
            }
            var set = collection.stubs(environment: environment, requiringAuth: requiresAuth)
            set.problems = (environment?.problems ?? []) + set.problems
            return .success(set)
        } catch {
            return .failure(error)
        }
    }

    /// The collection as `serve --watch` reads it again when it or the environment changes.
    var watched: WatchedMappings {
        WatchedMappings(files: files) {
            switch stubs() {
            case .success(let set): .success((set.mappings, set.problems))
            case .failure(let error): .failure(error.problem)
            }
        }
    }

    /// A file's bytes; one that cannot be read is an error naming it.
    private static func readFile(_ path: String) throws(PostmanCollectionError) -> [UInt8] {
        do {
            return try FileSystem.read(path)
        } catch {
            throw .unreadable(source: path, reason: FileProblem.unreadable(path))
        }
    }
}
