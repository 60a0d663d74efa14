import APISchema
import JSONKit
import XMLKit

/// A JSON value written as XML the way its schema's `xml` objects say (OpenAPI's XML object):
/// an object is an element whose members are child elements named after their keys, or
/// attributes of it (`attribute`), each renamed by its `name`, put in its `namespace` (with its
/// `prefix`); an array's elements repeat under the array's name, or under its items' `name`,
/// inside one wrapping element when `wrapped`; a scalar is an element's text, `null` an empty
/// element. The root element is named by the schema's `xml.name`, else the component its
/// `$ref` names, else `root`; a root array is always wrapped (a document has one root), its
/// elements named by its items' `xml.name`, else their component, else `item`. XMLKit's
/// ``XMLWriter`` writes the tree, so names are checked and text and attributes escaped.
package struct XMLBody {
    /// Why a value cannot be written as XML, and where in it (a JSONPath).
    package struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// Where in the value (a JSONPath).
        package var path: String
        /// What is wrong.
        package var message: String

        package var description: String { "\(path): \(message)" }
    }

    /// The most elements and attributes one body becomes.
    static let maximumNodes = 100_000

    let contract: Contract
    private var nodes = 0

    init(contract: Contract) {
        self.contract = contract
    }

    /// `value` as an XML document, following `schema` (nil: names from the keys alone).
    package static func text(of value: JSONValue, schema: Schema?, in contract: Contract) -> Result<String, Failure> {
        var body = XMLBody(contract: contract)
        do {
            let root = try body.root(value, schema: schema)
            return .success(try XMLWriter.document(root))
        } catch let failure as Failure {
            return .failure(failure)
        } catch let error as XMLError {
            return .failure(Failure(path: "$", message: error.message))
        } catch {
            return .failure(Failure(path: "$", message: "\(error)"))
        }
    }

    private mutating func root(_ value: JSONValue, schema: Schema?) throws -> XMLElement {
        let resolved = resolve(schema)
        let name = Self.xml(schema, resolved)?.name ?? schema?.referencedComponent ?? "root"
        guard case .array = value else { return try element(value, schema: schema, name: name, path: .root) }
        let items = resolved?.items
        let itemName = Self.xml(items, resolve(items))?.name ?? items?.referencedComponent ?? "item"
        var wrapper = try named(name, Self.xml(schema, resolved), path: .root)
        wrapper.children = try children(ofArray: value, items: items, itemName: itemName, path: .root)
        return wrapper
    }

    /// The element of `value` under `schema`, named `name` unless the schema's `xml` renames it.
    private mutating func element(
        _ value: JSONValue, schema: Schema?, name: String, path: JSONPath
    ) throws -> XMLElement {
        let resolved = resolve(schema)
        let xml = Self.xml(schema, resolved)
        var element = try named(xml?.name ?? name, xml, path: path)
        switch value {
        case .null: break
        case .bool, .int, .number, .string: element.children = [.text(Self.text(of: value))]
        case .array:
            let items = resolved?.items
            let itemName = Self.xml(items, resolve(items))?.name ?? xml?.name ?? name
            element.children = try children(ofArray: value, items: items, itemName: itemName, path: path)
        case .object(let members):
            for member in members {
                let memberPath = path.appending(key: member.key)
                let memberSchema = property(member.key, of: resolved)
                let memberXML = Self.xml(memberSchema, resolve(memberSchema))
                if memberXML?.attribute == true {
                    try addAttribute(
                        member.value, named: memberXML?.name ?? member.key, memberXML, to: &element, path: memberPath)
                } else {
                    element.children += try nodes(
                        member.value, schema: memberSchema, name: member.key, path: memberPath)
                }
            }
        }
        return element
    }

    /// A member's nodes: one element, or an array's elements (inside their wrapper when `wrapped`).
    private mutating func nodes(_ value: JSONValue, schema: Schema?, name: String, path: JSONPath) throws -> [XMLNode] {
        guard case .array = value else { return [.element(try element(value, schema: schema, name: name, path: path))] }
        let resolved = resolve(schema)
        let xml = Self.xml(schema, resolved)
        let items = resolved?.items
        // The array's own `name` names its wrapper (and, wrapped, its elements unless the items
        // rename them); unwrapped it has no effect: the elements carry the member's name.
        let itemName = Self.xml(items, resolve(items))?.name ?? (xml?.wrapped == true ? xml?.name ?? name : name)
        let elements = try children(ofArray: value, items: items, itemName: itemName, path: path)
        guard xml?.wrapped == true else { return elements }
        var wrapper = try named(xml?.name ?? name, xml, path: path)
        wrapper.children = elements
        return [.element(wrapper)]
    }

    private mutating func children(
        ofArray value: JSONValue, items: Schema?, itemName: String, path: JSONPath
    ) throws -> [XMLNode] {
        guard case .array(let elements) = value else { return [] }
        var children: [XMLNode] = []
        for (index, item) in elements.enumerated() {
            let path = path.appending(index: index)
            children.append(.element(try element(item, schema: items, name: itemName, path: path)))
        }
        return children
    }

    private mutating func addAttribute(
        _ value: JSONValue, named name: String, _ xml: SchemaXML?, to element: inout XMLElement, path: JSONPath
    ) throws {
        switch value {
        case .object, .array:
            throw Failure(
                path: path.description, message: "an attribute ('\(name)') holds a scalar, not \(value.kind.rawValue)")
        default: break
        }
        try count(path)
        guard XMLWriter.isNCName(name) else {
            throw Failure(path: path.description, message: "'\(name)' is not an XML name")
        }
        var attributeName = XMLName(localName: name)
        if let namespace = xml?.namespace {
            // An attribute without a prefix is in no namespace (Namespaces in XML §6.2).
            guard let prefix = xml?.prefix else {
                throw Failure(
                    path: path.description, message: "the attribute '\(name)' has a namespace but no prefix to bind it")
            }
            attributeName = XMLName(prefix: prefix, localName: name, namespaceURI: namespace)
            if !element.namespaces.contains(where: { $0.prefix == prefix }) {
                element.namespaces.append(XMLNamespace(prefix: prefix, uri: namespace))
            }
        } else if let prefix = xml?.prefix {
            throw Failure(
                path: path.description, message: "the prefix '\(prefix)' of '\(name)' has no namespace to stand for")
        }
        element.attributes.append(XMLAttribute(name: attributeName, value: value.isNull ? "" : Self.text(of: value)))
    }

    /// An empty element named `name`, in `xml`'s namespace (declared on it), counted.
    private mutating func named(_ name: String, _ xml: SchemaXML?, path: JSONPath) throws -> XMLElement {
        try count(path)
        guard XMLWriter.isNCName(name) else {
            throw Failure(path: path.description, message: "'\(name)' is not an XML name")
        }
        if let prefix = xml?.prefix, xml?.namespace == nil {
            throw Failure(
                path: path.description, message: "the prefix '\(prefix)' of '\(name)' has no namespace to stand for")
        }
        guard let namespace = xml?.namespace else { return XMLElement(name: XMLName(localName: name)) }
        return XMLElement(
            name: XMLName(prefix: xml?.prefix, localName: name, namespaceURI: namespace),
            namespaces: [XMLNamespace(prefix: xml?.prefix, uri: namespace)])
    }

    private mutating func count(_ path: JSONPath) throws {
        nodes += 1
        guard nodes <= Self.maximumNodes else {
            throw Failure(path: path.description, message: "more than \(Self.maximumNodes) elements and attributes")
        }
    }

    /// The schema a member's value follows: its property, else `additionalProperties`, else
    /// the property of that name in a branch of `oneOf`/`anyOf` or an `allOf` part.
    private func property(_ key: String, of schema: Schema?) -> Schema? {
        guard let schema else { return nil }
        if let property = schema.property(named: key) { return property.schema }
        if case .schema(let additional) = schema.additionalProperties { return additional }
        for part in schema.anyOf + schema.allOf {
            if let found = resolve(part)?.property(named: key) { return found.schema }
        }
        return nil
    }

    /// The schema with its `$ref`s followed and `allOf` parts merged (only when it has either).
    private func resolve(_ schema: Schema?) -> Schema? {
        guard let schema else { return nil }
        guard schema.reference != nil || !schema.allOf.isEmpty else { return schema }
        return contract.flattened(schema)
    }

    /// The `xml` object written beside the schema, else the one of the schema it refers to.
    private static func xml(_ schema: Schema?, _ resolved: Schema?) -> SchemaXML? {
        schema?.xml ?? resolved?.xml
    }

    private static func text(of value: JSONValue) -> String {
        switch value {
        case .string(let text): text
        case .bool(let flag): flag ? "true" : "false"
        case .null: ""
        default: value.serialized()
        }
    }
}
