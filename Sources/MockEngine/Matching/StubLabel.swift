import StubFormat

/// How petmock names a stub to a person: by its name and the file it came from,
/// `'get items' (mappings/items.json)`; by its id only where it has neither.
enum StubLabel {
    /// `'NAME' (mappings/FILE.json)`, `mappings/FILE.json`, `'NAME' (ID)` or `ID`.
    static func label(_ mapping: StubMapping, file: String?) -> String {
        switch (mapping.name, file.map(shortFile)) {
        case (let name?, let place?): "'\(name)' (\(place))"
        case (let name?, nil): "'\(name)' (\(mapping.id))"
        case (nil, let place?): place
        case (nil, nil): mapping.id
        }
    }

    /// A mapping file's path from its `mappings/` folder on (`mappings/items.json`), or the path
    /// as given when it has none.
    static func shortFile(_ path: String) -> String {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard let index = parts.dropLast().lastIndex(of: "mappings") else { return path }
        return parts[index...].joined(separator: "/")
    }
}

extension CompiledStub {
    /// The mapping file the stub was loaded from; nil for one added through the admin API or
    /// given in code.
    var file: String? {
        if case .file(let path) = origin { return path }
        return nil
    }

    /// The stub as a person names it (``StubLabel``).
    var label: String { StubLabel.label(mapping, file: file) }
}
