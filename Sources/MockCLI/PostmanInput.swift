import ArgumentKit
import HTTPCore
import Platform
import StubFormat

/// The Postman collection `--postman FILE` names (with `--postman-environment FILE`), read the
/// one way `serve` and `generate` read it: its stubs, with the problems written to standard
/// error, or nil with the error written there.
enum PostmanInput {
    static let collection = Argument<String?>.option(
        "postman", value: "FILE",
        help: "A Postman collection (v2.0 or v2.1): each request's saved examples become stubs.")
    static let environment = Argument<String?>.option(
        "postman-environment", value: "FILE",
        help: "A Postman environment export: values for the collection's {{variables}} (needs --postman).")

    /// Refuses `--postman-environment` without `--postman`.
    static func checkArguments(_ arguments: ParsedArguments) throws(ArgumentError) {
        if let environment = arguments[Self.environment], arguments[Self.collection] == nil {
            throw .invalidValue(
                option: "--postman-environment", value: environment, expected: "--postman FILE beside it")
        }
    }

    /// The stubs of the collection, its problems printed (`file: warning: $.item[0]: ...`).
    static func read(_ file: String, environment: String?) -> PostmanStubSet? {
        do {
            let collection = try PostmanCollection(bytes: readFile(file), source: file)
            var environmentValues: PostmanEnvironment?
            if let environment {
                environmentValues = try PostmanEnvironment(bytes: readFile(environment), source: environment)
                for problem in environmentValues?.problems ?? [] { writeError(problem.description) }
            }
            let set = collection.stubs(environment: environmentValues)
            for problem in set.problems { writeError(problem.description) }
            return set
        } catch {
            // The description escapes what it quotes from the files.
            writeError("petmock: error: \(error)")
            return nil
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
