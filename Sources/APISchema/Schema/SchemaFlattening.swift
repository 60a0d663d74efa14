extension Contract {
    /// The schema as validation and diff see it: `$ref`s followed and `allOf` parts merged
    /// (with the schemas they reference), recursively for nested `allOf`s. A reference back
    /// into a component being flattened stops there (an empty schema: any value), so a
    /// recursive `allOf` terminates; a reference to nothing is an empty schema too.
    public func flattened(_ schema: Schema) -> Schema {
        var visiting: Set<String> = []
        var budget = 4096
        return flatten(schema, visiting: &visiting, budget: &budget)
    }

    /// `budget` bounds the parts merged in all, so `allOf`s that share parts many times over
    /// (A: allOf [B, B], B: allOf [C, C], ...) cannot take exponential time.
    private func flatten(_ schema: Schema, visiting: inout Set<String>, budget: inout Int) -> Schema {
        guard budget > 0 else { return Schema() }
        budget -= 1
        var base: Schema
        var entered: String?
        if let name = schema.referencedComponent {
            guard !visiting.contains(name), visiting.count < 64, let target = component(named: name) else {
                return Schema()
            }
            visiting.insert(name)
            entered = name
            base = flatten(target, visiting: &visiting, budget: &budget)
            base.allOf = []
        } else if schema.reference != nil {
            return Schema()
        } else {
            base = schema
            base.allOf = []
        }
        for part in schema.allOf {
            var flat = flatten(part, visiting: &visiting, budget: &budget)
            // A subtype's `allOf` names its polymorphic parent (Dog: allOf [Pet, ...], Pet:
            // oneOf [Dog, Cat] with a discriminator): the parent's choice is not the subtype's,
            // and taking it over would loop. Likewise a choice that names a schema being flattened.
            let loops = flat.anyOf.contains { branch in branch.referencedComponent.map(visiting.contains) ?? false }
            if flat.discriminator != nil || loops {
                flat.anyOf = []
                flat.discriminator = nil
            }
            base = base.merged(with: flat)
        }
        base.allOf = []
        if let entered { visiting.remove(entered) }
        return base
    }
}
