import Platform
import StubFormat
import Templating

/// The body files a templated `bodyFileName` names, each read and compiled once per version
/// instead of per request: kept by resolved path with the file's stamp (identity, size,
/// modification and change times), which one `stat` checks per request, so an edited file is
/// read again on its next use. At most ``capacity`` files and ``byteCapacity`` bytes of them
/// are kept (past either the cache starts over). A reload of the stubs (the watcher's, on any change under `__files/`) makes new
/// stubs with empty caches.
final class TemplatedBodyFiles: Sendable {
    /// A file's content, ready to render.
    enum Content: Sendable {
        case template(Template)
        /// Served as it is: no mustache, not UTF-8, or templating disabled for body files.
        case bytes([UInt8])
        /// A template that does not compile: the message of the 500 each use answers.
        case invalid(String)
    }

    /// The most files kept per stub.
    static let capacity = 64
    /// The most bytes of file kept per stub (each file is at most the template limit, 1 MiB).
    static let byteCapacity = 16 << 20

    /// The rule each rendered name goes through, with `__files/`'s real path found at load
    /// (each name's own real path is found per request).
    private let resolver: BodyFileResolver?
    /// `transformerParameters.disableBodyFileTemplating`: files are served as they are.
    let templatingDisabled: Bool
    private struct Kept {
        var entries: [String: (stamp: FileStamp, content: Content, size: Int)] = [:]
        var bytes = 0
    }

    private let kept = Locked(Kept())
    private let readCount = Locked(0)

    init(filesRoot: String?, templatingDisabled: Bool) {
        resolver = filesRoot.map { BodyFileResolver(keepingRealPathOf: $0) }
        self.templatingDisabled = templatingDisabled
    }

    /// How many times a file was read (and compiled), for tests.
    var reads: Int { readCount.withLock { $0 } }

    /// How many files are kept.
    var count: Int { kept.withLock { $0.entries.count } }

    /// How many bytes of file are kept.
    var keptBytes: Int { kept.withLock { $0.bytes } }

    /// The content of the rendered `bodyFileName` `name`: inside `__files/` by the same rule
    /// as at load, read only when its stamp changed since it was kept.
    func content(_ name: String) -> Result<Content, ResponseTemplate.Failure> {
        guard let resolver else {
            return .failure(.init(message: "bodyFileName '\(name)': the mappings come from no stub folder"))
        }
        // The stamp is taken before the read (a change during the read shows at the next
        // check), by the `stat` that finds the name is a file.
        let path: String
        let stamp: FileStamp
        switch resolver.resolveStamped(name) {
        case .success(let resolved): (path, stamp) = resolved
        case .failure(.outsideRoot):
            return .failure(.init(message: "bodyFileName '\(name)' leads outside __files/; it is not served"))
        case .failure(.notFound):
            return .failure(.init(message: "bodyFileName '\(name)' does not exist in __files/"))
        case .failure(.rootMissing):
            return .failure(.init(message: "bodyFileName '\(name)': there is no __files/ folder"))
        }
        if let entry = kept.withLock({ $0.entries[path] }), entry.stamp == stamp {
            return .success(entry.content)
        }
        let bytes: [UInt8]
        do throws(FileSystemError) {
            // A file over the template limit is refused from its size, never read whole.
            bytes = try FileSystem.read(path, atMost: TemplateLimits.standard.maximumSourceLength)
        } catch  where error.isTooLarge {
            return .failure(.init(message: "bodyFileName '\(name)': the file is too large to template"))
        } catch {
            return .failure(.init(message: "bodyFileName '\(name)': \(error.reason)"))
        }
        readCount.withLock { $0 += 1 }
        let content: Content
        if !templatingDisabled, let text = String(validating: bytes, as: UTF8.self), Template.mayContainTemplate(text) {
            do throws(TemplateError) {
                content = .template(try Template(text))
            } catch {
                content = .invalid("the response template failed: \(error.description)")
            }
        } else {
            content = .bytes(bytes)
        }
        kept.withLock { kept in
            if let previous = kept.entries.removeValue(forKey: path) { kept.bytes -= previous.size }
            if kept.entries.count >= Self.capacity || kept.bytes + bytes.count > Self.byteCapacity {
                kept = Kept()
            }
            kept.entries[path] = (stamp, content, bytes.count)
            kept.bytes += bytes.count
        }
        return .success(content)
    }
}
