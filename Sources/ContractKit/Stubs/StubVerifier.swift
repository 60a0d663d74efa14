/// Checks the responses of a stub folder's base mappings (those without `metadata.variant`;
/// variants are meant to drift) against a contract, without running a server.
///
/// A mapping is matched to an operation by method and path; a leading prefix such as `/api`
/// is allowed (`/api/vets/2` is `GET /vets/{id}`). Mappings matched by a URL pattern, serving
/// a fault, or for paths the contract does not have are listed as notes.
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

    /// Checks every base mapping in `directory`; with `mappingFiles` (paths relative to its
    /// `mappings/`, such as `get-api-pets.json`), only the mappings in those files (what a
    /// recording just wrote, say).
    public func verify(directory: String, contractName: String, mappingFiles: [String]? = nil) -> VerificationReport {
        var report = VerificationReport(
            target: directory, contract: contractName, decodeCheck: validator.models.coverage(of: validator.contract))
        report.notes += validator.contract.unverified
        let (mappings, errors) = StubMappingReader(root: directory).read(only: mappingFiles.map(Set.init))
        report.errors = errors
        var collector = FindingCollector()
        var variants = 0
        var unselected = 0
        for mapping in mappings {
            if mapping.variant != nil {
                variants += 1
                continue
            }
            if let fault = mapping.fault {
                report.notes.append("\(mapping.label): skipped, it serves the fault \(fault)")
                continue
            }
            guard let path = mapping.urlPath else {
                report.notes.append("\(mapping.label): skipped, it matches by URL pattern")
                continue
            }
            guard let operation = StubVerifier.operation(for: mapping.method, path: path, in: validator.contract) else {
                report.notes.append("\(mapping.label): skipped, no operation of the contract has this path")
                continue
            }
            if let selected, !selected.contains(operation.name) {
                unselected += 1
                continue
            }
            if !report.operations.contains(operation.name) { report.operations.append(operation.name) }
            let response = ObservedResponse(
                url: mapping.label, status: mapping.status, contentType: mapping.contentType, body: mapping.body)
            collector.add(validator.validate(response, for: operation, expecting: .documented).findings)
        }
        if unselected > 0 {
            report.notes.append(
                "\(unselected) mapping\(unselected == 1 ? "" : "s") of operations not selected "
                    + "(--operation, --include, --exclude) not checked")
        }
        if variants > 0 {
            report.notes.append("\(variants) variant mappings not checked (variants are meant to drift)")
        }
        report.findings = collector.findings
        return report
    }

    /// The operation whose template matches the path, allowing a prefix before it.
    static func operation(for method: String, path: String, in contract: Contract) -> ContractOperation? {
        let segments = path.split(separator: "/").map(String.init)
        var best: (operation: ContractOperation, prefix: Int)?
        for operation in contract.operations
        where method == "ANY" ? operation.method == .get : operation.method.rawValue == method {
            let template = operation.path.split(separator: "/").map(String.init)
            guard template.count <= segments.count else { continue }
            let prefix = segments.count - template.count
            let matches = zip(template, segments[prefix...]).allSatisfy { pattern, segment in
                pattern == segment || (pattern.hasPrefix("{") && pattern.hasSuffix("}") && !segment.isEmpty)
            }
            if matches, best == nil || prefix < (best?.prefix ?? .max) { best = (operation, prefix) }
        }
        return best?.operation
    }
}
