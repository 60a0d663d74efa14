/// What a Postman collection's examples become: the mappings and what was wrong.
public struct PostmanStubSet: Sendable, Hashable {
    /// One mapping per example; examples of one request pattern after the first are file
    /// variants (`metadata.variant`) named after the example.
    public var mappings: [StubMapping]
    /// Warnings, each with its JSON path in the collection: requests without an example, items
    /// and examples that could not be read (left out, the others kept), variables left
    /// unresolved.
    public var problems: [StubProblem]
    /// How many requests the collection holds, folders walked.
    public var requestCount: Int

    /// Creates a set.
    public init(mappings: [StubMapping], problems: [StubProblem], requestCount: Int) {
        self.mappings = mappings
        self.problems = problems
        self.requestCount = requestCount
    }
}
