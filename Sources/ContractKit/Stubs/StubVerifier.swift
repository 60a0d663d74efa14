import APISchema
import HTTPCore
import Platform
import StubFormat

/// Checks the responses of a stub folder's base mappings (those without `metadata.variant`;
/// variants are meant to drift) against a contract, without running a server.
///
/// The folder is read by ``StubFormat/StubFolder``, as petmock reads it: the same mappings,
/// the same problems (each error is a verification error, each warning a note) and the same
/// body-file rule. A mapping is matched to an operation by method and path; a leading prefix
/// such as `/api` is allowed (`/api/vets/2` is `GET /vets/{id}`). Mappings matched by a URL
/// pattern, serving a fault, passing requests on, templated, or for paths the contract does
/// not have are listed as notes; operations no base mapping was checked against are skipped
/// (``VerificationReport/skipped``).
///
/// ```swift
/// let report = StubVerifier(contract: contract, models: models).verify(directory: "Stubs", contractName: "built-in")
/// ```
public struct StubVerifier: Sendable {
    private let validator: ContractValidator
    private let selected: Set<String>?

    /// Creates a verifier; with `selected` (operation names, `GET /pets`), mappings of the
    /// contract's other operations are left out (counted in a note).
    public init(contract: Contract, models: ModelRegistry = ModelRegistry(), selected: Set<String>? = nil) {
        self.validator = ContractValidator(contract: contract, models: models)
        self.selected = selected
    }

    /// Checks every base mapping in `directory`; the operations no base mapping was checked
    /// against are skipped. With `mappingFiles` (paths relative to its `mappings/`, such as
    /// `get-api-pets.json`), only the mappings in those files (what a recording just wrote,
    /// say), and no operation is skipped for want of a mapping.
    public func verify(directory: String, contractName: String, mappingFiles: [String]? = nil) -> VerificationReport {
        var report = VerificationReport(
            target: directory, contract: contractName, decodeCheck: validator.models.coverage(of: validator.contract))
        report.notes += validator.contract.unverified + validator.contract.ignoredKeywords
        let folder = StubFolder(root: directory)
        guard FileSystem.kind(of: folder.mappingsDirectory) == .directory else {
            report.errors = [
                VerificationError(operation: directory, url: nil, message: FileProblem.notAStubFolder(directory))
            ]
            return report
        }
        let contents: StubFolderContents
        do {
            contents = try folder.read(only: mappingFiles.map(Set.init))
        } catch {
            report.errors = [VerificationError(operation: directory, url: nil, message: error.description)]
            return report
        }
        var problems = contents.problems
        // As petmock: a mapping that did not decode still has its body file checked.
        for entry in contents.files.flatMap(\.rejected) where Self.readsBodyFile(entry.mapping) {
            if case .failure(let problem) = folder.body(of: entry) { problems.append(problem) }
        }
        var collector = FindingCollector()
        var counts = (variants: 0, unselected: 0)
        for entry in contents.mappings {
            var body: [UInt8] = []
            if Self.readsBodyFile(entry.mapping) || !entry.mapping.response.body.isFile {
                switch folder.body(of: entry) {
                case .success(let bytes): body = bytes
                case .failure(let problem):
                    problems.append(problem)
                    continue
                }
            }
            check(entry, body: body, into: &report, collector: &collector, counts: &counts)
        }
        report.errors += problems.filter(\.isError).map {
            VerificationError(operation: $0.file, url: $0.file, message: "\($0.path): \($0.message)")
        }
        report.notes += problems.filter { !$0.isError }.map { problem in
            (problem.file.isEmpty ? "" : "\(problem.file): ") + "warning: "
                + (problem.path.isEmpty ? "" : "\(problem.path): ") + problem.message
        }
        if counts.unselected > 0 {
            report.notes.append(
                "\(counts.unselected) mapping\(counts.unselected == 1 ? "" : "s") of operations not selected "
                    + "(--operation, --include, --exclude) not checked")
        }
        if counts.variants > 0 {
            report.notes.append("\(counts.variants) variant mappings not checked (variants are meant to drift)")
        }
        if mappingFiles == nil { report.skipped = unchecked(besides: report.operations) }
        report.findings = collector.findings
        return report
    }

    /// Checks one mapping whose body was read: a finding, a note, or a count.
    private func check(
        _ entry: StubEntry, body: [UInt8], into report: inout VerificationReport, collector: inout FindingCollector,
        counts: inout (variants: Int, unselected: Int)
    ) {
        let mapping = entry.mapping
        let label = StubVerifier.label(entry)
        if mapping.variant != nil {
            counts.variants += 1
            return
        }
        if let fault = mapping.response.fault {
            report.notes.append("\(label): skipped, it serves the fault \(fault.rawValue)")
            return
        }
        if let proxy = mapping.response.proxy {
            report.notes.append("\(label): skipped, it passes requests on to \(proxy.baseURL)")
            return
        }
        if mapping.response.isTemplated {
            report.notes.append("\(label): skipped, its response is a template rendered per request")
            return
        }
        guard let path = StubVerifier.urlPath(of: mapping.request) else {
            report.notes.append("\(label): skipped, it matches by URL pattern")
            return
        }
        guard let methods = StubVerifier.methods(of: mapping.request) else {
            report.notes.append("\(label): skipped, it answers every method but GET, so no one operation applies")
            return
        }
        var operations: [ContractOperation] = []
        for method in methods {
            if let operation = StubVerifier.operation(for: method, path: path, in: validator.contract),
                !operations.contains(where: { $0.name == operation.name })
            {
                operations.append(operation)
            }
        }
        guard !operations.isEmpty else {
            report.notes.append("\(label): skipped, no operation of the contract has this path")
            return
        }
        for operation in operations {
            if let selected, !selected.contains(operation.name) {
                counts.unselected += 1
                continue
            }
            guard !operation.responses.isEmpty else {
                report.notes.append(
                    "\(label): skipped, the document gives \(operation.name) no responses to check against")
                continue
            }
            if !report.operations.contains(operation.name) { report.operations.append(operation.name) }
            let response = ObservedResponse(
                url: label, status: mapping.response.status, contentType: mapping.response.servedContentType,
                body: body)
            collector.add(validator.validate(response, for: operation, expecting: .documented).findings)
        }
    }

    /// The operations of the contract (those selected) with responses to check that no base
    /// mapping was checked against: skipped. An operation without responses has nothing to
    /// check (a note says so where a mapping names it).
    private func unchecked(besides checked: [String]) -> [SkippedOperation] {
        validator.contract.operations.filter { operation in
            !operation.responses.isEmpty && !checked.contains(operation.name)
                && (selected?.contains(operation.name) ?? true)
        }
        .map {
            SkippedOperation(operation: $0.name, reason: "no base mapping for it was checked", cause: .noStubMapping)
        }
    }

    /// Whether the body of a mapping is read from `__files/` at load: a `bodyFileName`,
    /// unless the mapping is templated and the name holds a template (rendered per request).
    static func readsBodyFile(_ mapping: StubMapping) -> Bool {
        guard case .file(let name) = mapping.response.body else { return false }
        return !(mapping.response.isTemplated && name.contains("{{"))
    }

    /// The operation whose template matches the path, allowing a prefix before it: the one
    /// with the shortest prefix, then the most literal segments (`/runners/downloads` is
    /// `GET /runners/downloads`, not `GET /runners/{id}`, whichever the document lists first).
    static func operation(for method: HTTPMethod, path: String, in contract: Contract) -> ContractOperation? {
        let segments = path.split(separator: "/").map(String.init)
        var best: (operation: ContractOperation, prefix: Int, literals: Int)?
        for operation in contract.operations where operation.method == method {
            let template = operation.path.split(separator: "/").map(String.init)
            guard template.count <= segments.count else { continue }
            let prefix = segments.count - template.count
            let pairs = zip(template, segments[prefix...])
            let matches = pairs.allSatisfy { pattern, segment in
                pattern == segment || (pattern.hasPrefix("{") && pattern.hasSuffix("}") && !segment.isEmpty)
            }
            let literals = pairs.count { pattern, segment in pattern == segment && !pattern.hasPrefix("{") }
            if matches, best.map({ prefix < $0.prefix || (prefix == $0.prefix && literals > $0.literals) }) ?? true {
                best = (operation, prefix, literals)
            }
        }
        return best?.operation
    }
}
