import ArgumentKit
import StubFormat

/// Where `serve` and `variants` take their stubs from, decided and read one way: the stub
/// folder (`--stubs`, or the default folder when nothing else gives stubs) and the stubs of a
/// Postman collection (`--postman`).
struct StubSources: Sendable {
    /// The stub folder, or nil when only a document or a collection answers.
    let directory: String?
    /// The collection `--postman` names, if any.
    let postman: PostmanInput?
    /// The collection's stubs as read at start.
    let postmanStubs: PostmanStubSet?

    /// The mappings built in Swift, beside the folder's: the collection's.
    var mappings: [StubMapping] { postmanStubs?.mappings ?? [] }

    /// The sources the arguments name (`stubs` is the command's `--stubs`); `withDocument` when
    /// an OpenAPI document answers too. Nil when the collection cannot be read (the error
    /// printed); the collection's problems are printed.
    static func read(
        _ arguments: ParsedArguments, stubs: Argument<String>, withDocument: Bool
    ) throws(ArgumentError) -> StubSources? {
        let postman = try PostmanInput.from(arguments)
        var postmanStubs: PostmanStubSet?
        if let postman {
            guard let set = postman.read() else { return nil }
            postmanStubs = set
        }
        // With a document or a collection and no --stubs, only they answer.
        let directory =
            (withDocument || postman != nil) && !arguments.isPresent(stubs) ? nil : arguments[stubs]
        return StubSources(directory: directory, postman: postman, postmanStubs: postmanStubs)
    }
}
