import FuzzDriver
import JSONKit
import OpenAPIMock

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The folder the input becomes a state file in, made once per process.
let folder: String = {
    var template = Array("/tmp/petkit-fuzz-state-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { fatalError("cannot make a temporary folder") }
    return String(cString: made)
}()
let collections = ["/things", "/users/{userId}/orders", "/tags"]

/// The check libFuzzer runs on every input, the bytes of a `--state-file`: opening it never
/// crashes or hangs; it is a store or a `StateFileError` naming the file; a store holds what
/// its summary says, within the limits, and takes a write that is read back.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStateFile(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let file = folder + "/state.sqlite"
    for name in [file, file + "-wal", file + "-shm"] { unlink(name) }
    let descriptor = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    precondition(descriptor >= 0, "cannot write \(file)")
    precondition(write(descriptor, data, size) == size, "short write")
    close(descriptor)

    let limits = ResourceStore.Limits(collections: 10, items: 100, bytes: 1 << 20)
    let store: ResourceStore
    do {
        store = try ResourceStore(limits: limits, stateFile: file, collections: collections)
    } catch {
        precondition(error.description.hasPrefix("state file '\(file)': "), "error without its file: \(error)")
        return 0
    }
    let summary = store.summary()
    precondition(summary.items <= limits.items && summary.bytes <= limits.bytes, "past the limits: \(summary)")
    precondition(summary.collections.reduce(0) { $0 + $1.items } == summary.items, "counts disagree: \(summary)")
    for entry in summary.collections {
        let page = store.page(of: entry.collection, offset: 0, limit: 1_000)
        precondition(page.total == entry.items, "a page disagrees with the summary: \(entry)")
    }
    let number = store.nextNumber(in: "/things")
    do {
        if try store.insert(["id": .int(number)], id: String(number), in: "/things") {
            precondition(store.value(id: String(number), in: "/things") == ["id": .int(number)], "a write is lost")
        }
    } catch {
        // Full, or the file refused the write: nothing changed.
        precondition(store.summary().items == summary.items, "a refused write changed the store")
    }
    return 0
}

exit(fuzz_driver_run(CommandLine.argc, CommandLine.unsafeArgv, fuzzStateFile))
