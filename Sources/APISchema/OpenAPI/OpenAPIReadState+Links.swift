import HTTPCore
import JSONKit

extension OpenAPIReadState {
    /// Reads OpenAPI response `links` into ``ParameterSource``s: a link from a response of
    /// `GET /users` to operation `getUser` (by `operationId`, or a local `operationRef` such as
    /// `#/paths/~1users~1{id}/get`) whose parameter `id` is `$response.body#/0/id` makes every
    /// such value of `GET /users`'s bodies a value for `getUser`'s `id`. Other runtime
    /// expressions (`$request...`, `$response.header...`), constants, links to other documents
    /// and links to operations the contract does not have are left out: they give no values.
    func readLinks(into contract: inout Contract) throws(ContractError) {
        guard let paths = try root.child("paths") else { return }
        for (path, item) in try paths.members() {
            let item = try resolve(item)
            for (key, node) in try item.members() where OpenAPIReader.methods.contains(key) {
                let from = "\(key.uppercased()) \(path)"
                guard let responses = try node.child("responses") else { continue }
                for (_, response) in try responses.members() {
                    guard let links = try resolve(response).child("links") else { continue }
                    for (_, link) in try links.members() {
                        try readLink(try resolve(link), from: from, into: &contract)
                    }
                }
            }
        }
    }

    private func readLink(_ link: OpenAPINode, from: String, into contract: inout Contract) throws(ContractError) {
        guard let target = try linkTarget(link, in: contract), let parameters = try link.child("parameters") else {
            return
        }
        for (qualified, expression) in try parameters.members() {
            guard case .string(let text) = expression.value, let path = Self.bodyPath(text) else { continue }
            var name = qualified
            var location: ContractParameter.Location?
            if let dot = qualified.firstIndex(of: "."),
                let qualifier = ContractParameter.Location(rawValue: String(qualified[..<dot]))
            {
                location = qualifier
                name = String(qualified[qualified.index(after: dot)...])
            }
            let source = ParameterSource(operation: from, path: path)
            for index in contract.operations[target].parameters.indices {
                let parameter = contract.operations[target].parameters[index]
                guard parameter.name == name, location.map({ $0 == parameter.location }) ?? true,
                    !parameter.sources.contains(source)
                else { continue }
                contract.operations[target].parameters[index].sources.append(source)
            }
        }
    }

    /// The index of the operation a link names, or nil when the contract has none such.
    private func linkTarget(_ link: OpenAPINode, in contract: Contract) throws(ContractError) -> Int? {
        if let operationId = try link.optionalString("operationId") {
            return contract.operations.firstIndex { $0.operationId == operationId }
        }
        guard let reference = try link.optionalString("operationRef"), reference.hasPrefix("#/paths/") else {
            return nil
        }
        let tokens = reference.dropFirst("#/paths/".count).split(separator: "/").map {
            JSONPointerToken.unescape($0)
        }
        guard tokens.count == 2 else { return nil }
        let method = HTTPMethod(rawValue: tokens[1].uppercased())
        return contract.operations.firstIndex { $0.path == tokens[0] && $0.method == method }
    }

    /// `$response.body#/0/id` as the JSONPath `$[0].id` (a number token is an array index);
    /// `$response.body` alone is `$`; nil for any other expression.
    static func bodyPath(_ expression: String) -> String? {
        let prefix = "$response.body"
        guard expression.hasPrefix(prefix) else { return nil }
        let rest = expression.dropFirst(prefix.count)
        if rest.isEmpty { return JSONPath.root.description }
        guard rest.hasPrefix("#") else { return nil }
        var path = JSONPath.root
        for token in rest.dropFirst().split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            let key = JSONPointerToken.unescape(token)
            if let index = Int(key), index >= 0, key.first != "+" {
                path = path.appending(index: index)
            } else {
                path = path.appending(key: key)
            }
        }
        return path.description
    }
}
