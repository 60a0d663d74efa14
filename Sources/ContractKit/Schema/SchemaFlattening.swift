extension Contract {
    /// The schema as validation and diff see it: `$ref`s followed and `allOf` parts merged
    /// (with the schemas they reference), recursively for nested `allOf`s. A reference back
    /// into a component being flattened stops there (an empty schema: any value), so a
    /// recursive `allOf` terminates; a reference to nothing is an empty schema too.
    public func flattened(_ schema: Schema) -> Schema {
        var visiting: Set<String> = []
        return flatten(schema, visiting: &visiting)
    }

    private func flatten(_ schema: Schema, visiting: inout Set<String>) -> Schema {
        var base: Schema
        var entered: String?
        if let name = schema.referencedComponent {
            guard !visiting.contains(name), visiting.count < 64, let target = component(named: name) else {
                return Schema()
            }
            visiting.insert(name)
            entered = name
            base = flatten(target, visiting: &visiting)
            base.allOf = []
        } else if schema.reference != nil {
            return Schema()
        } else {
            base = schema
            base.allOf = []
        }
        for part in schema.allOf {
            base = base.merged(with: flatten(part, visiting: &visiting))
        }
        base.allOf = []
        if let entered { visiting.remove(entered) }
        return base
    }
}
