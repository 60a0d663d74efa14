import FuzzDriver
import FuzzSupport
import JSONKit
import StubFormat

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A stub folder made once per process: the fuzzer's input becomes `mappings/fuzz.json`; inside
/// `__files/` are a body file and a symbolic link to a file outside it (`__files/outside`), and
/// beside the folder a file no `bodyFileName` may ever reach.
let root = FuzzStubRoot.make("folder", files: ["__files/pets.json": "[1, 2]"])

/// The check libFuzzer runs on every input: reading the folder never crashes, hangs or throws
/// (its root exists); every problem names the file; no body read under the body-file rule is
/// the secret beside `__files/`; every mapping read decodes again from its own JSON to the same
/// JSON.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStubFolder(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let file = root + "/mappings/fuzz.json"
    let descriptor = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    precondition(descriptor >= 0, "cannot write \(file)")
    precondition(Glibc.write(descriptor, data, size) == size, "short write")
    close(descriptor)

    let folder = StubFolder(root: root)
    let contents: StubFolderContents
    do {
        contents = try folder.read()
    } catch {
        preconditionFailure("a bad mapping file must be a problem, not a failed read: \(error)")
    }
    for problem in contents.problems {
        precondition(problem.file == file, "problem without its file: \(problem)")
        _ = problem.description
    }
    for entry in contents.mappings + contents.files.flatMap(\.rejected) {
        if case .success(let bytes) = folder.body(of: entry) {
            precondition(
                bytes != Array(FuzzStubRoot.secret.utf8),
                "a body file outside __files/ was read: \(entry.mapping.response.body)")
        }
    }
    for entry in contents.mappings {
        let json = entry.mapping.json
        do {
            let again = try StubMapping(json: json)
            precondition(again.json == json, "mapping JSON changes on a second decode")
        } catch {
            preconditionFailure("a mapping's JSON does not read again: \(error)\n\(json.serialized(.pretty))")
        }
    }
    return 0
}

exit(fuzz_driver_run(CommandLine.argc, CommandLine.unsafeArgv, fuzzStubFolder))
