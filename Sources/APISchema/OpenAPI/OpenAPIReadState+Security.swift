extension OpenAPIReadState {
    /// `components/securitySchemes`, in order. A scheme petmock cannot read (an unknown
    /// `type`, an apiKey without `name` or `in`, an http scheme without `scheme`) is kept as
    /// ``SecurityScheme/Kind/unsupported(reason:)``, for the server to report; a scheme that is
    /// not an object is an error.
    func readSecuritySchemes() throws(ContractError) -> [SecurityScheme] {
        guard let schemes = try root.child("components")?.child("securitySchemes") else { return [] }
        var read: [SecurityScheme] = []
        for (name, node) in try schemes.members() {
            read.append(SecurityScheme(name: name, kind: try readSecurityScheme(try resolve(node))))
        }
        return read
    }

    private func readSecurityScheme(_ node: OpenAPINode) throws(ContractError) -> SecurityScheme.Kind {
        _ = try node.object()
        guard let type = try node.optionalString("type") else { return .unsupported(reason: "it has no 'type'") }
        switch type {
        case "apiKey":
            let name = try node.optionalString("name") ?? ""
            let location = try node.optionalString("in")
            guard !name.isEmpty else { return .unsupported(reason: "an apiKey scheme needs a 'name'") }
            guard let location, let place = SecurityScheme.KeyLocation(rawValue: location) else {
                return .unsupported(
                    reason:
                        "an apiKey scheme needs 'in' header, query or cookie, not \(location.map { "'\($0)'" } ?? "none")"
                )
            }
            return .apiKey(name: name, location: place)
        case "http":
            let scheme = try node.optionalString("scheme") ?? ""
            guard !scheme.isEmpty, !scheme.utf8.contains(UInt8(ascii: " ")) else {
                return .unsupported(reason: "an http scheme needs a 'scheme' such as basic or bearer")
            }
            return .http(scheme: scheme.lowercased())
        case "oauth2": return .oauth2
        case "openIdConnect": return .openIdConnect
        case "mutualTLS": return .mutualTLS
        default:
            return .unsupported(
                reason: "type '\(type)' is not one of apiKey, http, mutualTLS, oauth2, openIdConnect")
        }
    }

    /// A `security` list: an array of objects whose members are arrays of scope strings.
    func readSecurity(_ node: OpenAPINode) throws(ContractError) -> [SecurityRequirement] {
        var requirements: [SecurityRequirement] = []
        for entry in try node.array() {
            var requirement = SecurityRequirement([])
            for (scheme, scopes) in try entry.members() {
                var names: [String] = []
                for scope in try scopes.array() { names.append(try scope.string()) }
                requirement.entries.append(SecurityRequirement.Entry(scheme: scheme, scopes: names))
            }
            requirements.append(requirement)
        }
        return requirements
    }
}
