import ArgumentKit
import Platform
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

    /// The sources the arguments name (`stubs` is the command's `--stubs`); `document`, the
    /// OpenAPI document's file when one answers too. Nil when the collection cannot be read (the
    /// error printed); the collection's problems are printed. Refuses a source file that is
    /// also one of the stub folder's mapping files (``checkNotInMappings(_:directory:)``).
    static func read(
        _ arguments: ParsedArguments, stubs: Argument<String>, document: String?
    ) throws(ArgumentError) -> StubSources? {
        let postman = try PostmanInput.from(arguments)
        // With a document or a collection and no --stubs, only they answer.
        let directory =
            (document != nil || postman != nil) && !arguments.isPresent(stubs) ? nil : arguments[stubs]
        if let directory {
            var files: [(option: String, path: String)] = []
            if let postman {
                files.append(("--postman", postman.file))
                if let environment = postman.environmentFile { files.append(("--postman-environment", environment)) }
            }
            if let document { files.append(("--openapi", document)) }
            try checkNotInMappings(files, directory: directory)
        }
        var postmanStubs: PostmanStubSet?
        if let postman {
            guard let set = postman.read() else { return nil }
            postmanStubs = set
        }
        return StubSources(directory: directory, postman: postman, postmanStubs: postmanStubs)
    }

    /// Refuses a file given as a source of its own (a collection, its environment, a document)
    /// that the stub folder at `directory` also lists as a mapping file (a `*.json` under its
    /// `mappings/`, reached by any path or link): read twice, it would be refused as a broken
    /// mapping or served twice, and `validate` and `petcontract verify --stub` would report it
    /// too. A folder that cannot be listed is left to the loader, which says why.
    static func checkNotInMappings(
        _ files: [(option: String, path: String)], directory: String
    ) throws(ArgumentError) {
        let folder = StubFolder(root: directory)
        guard !files.isEmpty, let listing = try? folder.listing() else { return }
        let mappingFiles = Set(listing.files.compactMap(FileSystem.resolve))
        for (option, path) in files {
            guard let real = FileSystem.resolve(path), mappingFiles.contains(real) else { continue }
            throw .invalidValue(
                option: option, value: path,
                expected: "a file outside '\(folder.mappingsDirectory)', whose JSON files are read as mappings "
                    + "(move it out, or leave out --stubs)")
        }
    }
}
