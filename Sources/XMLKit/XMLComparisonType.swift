/// The kinds of comparison XMLUnit makes between two documents, by XMLUnit's names
/// (`org.xmlunit.diff.ComparisonType`), as WireMock's `exemptedComparisons` spells them.
public enum XMLComparisonType: String, Sendable, Hashable, CaseIterable {
    case attrNameLookup = "ATTR_NAME_LOOKUP"
    case attrValue = "ATTR_VALUE"
    case attrValueExplicitlySpecified = "ATTR_VALUE_EXPLICITLY_SPECIFIED"
    case childLookup = "CHILD_LOOKUP"
    case childNodelistLength = "CHILD_NODELIST_LENGTH"
    case childNodelistSequence = "CHILD_NODELIST_SEQUENCE"
    case commentValue = "COMMENT_VALUE"
    case doctypeName = "DOCTYPE_NAME"
    case doctypePublicID = "DOCTYPE_PUBLIC_ID"
    case doctypeSystemID = "DOCTYPE_SYSTEM_ID"
    case elementNumAttributes = "ELEMENT_NUM_ATTRIBUTES"
    case elementTagName = "ELEMENT_TAG_NAME"
    case hasDoctypeDeclaration = "HAS_DOCTYPE_DECLARATION"
    case namespacePrefix = "NAMESPACE_PREFIX"
    case namespaceURI = "NAMESPACE_URI"
    case noNamespaceSchemaLocation = "NO_NAMESPACE_SCHEMA_LOCATION"
    case nodeType = "NODE_TYPE"
    case processingInstructionData = "PROCESSING_INSTRUCTION_DATA"
    case processingInstructionTarget = "PROCESSING_INSTRUCTION_TARGET"
    case schemaLocation = "SCHEMA_LOCATION"
    case textValue = "TEXT_VALUE"
    case xmlEncoding = "XML_ENCODING"
    case xmlStandalone = "XML_STANDALONE"
    case xmlVersion = "XML_VERSION"

    /// The comparison's bit in a mask (a switch: hashing a raw-value enum hashes its string).
    var bit: UInt32 { UInt32(1) << ordinal }

    private var ordinal: UInt32 {
        switch self {
        case .attrNameLookup: 0
        case .attrValue: 1
        case .attrValueExplicitlySpecified: 2
        case .childLookup: 3
        case .childNodelistLength: 4
        case .childNodelistSequence: 5
        case .commentValue: 6
        case .doctypeName: 7
        case .doctypePublicID: 8
        case .doctypeSystemID: 9
        case .elementNumAttributes: 10
        case .elementTagName: 11
        case .hasDoctypeDeclaration: 12
        case .namespacePrefix: 13
        case .namespaceURI: 14
        case .noNamespaceSchemaLocation: 15
        case .nodeType: 16
        case .processingInstructionData: 17
        case .processingInstructionTarget: 18
        case .schemaLocation: 19
        case .textValue: 20
        case .xmlEncoding: 21
        case .xmlStandalone: 22
        case .xmlVersion: 23
        }
    }

    /// The comparisons WireMock's `equalToXml` counts; every other kind of difference (a
    /// namespace prefix, the order of children, comments, the XML declaration, the DOCTYPE)
    /// is not one.
    package static let counted: Set<XMLComparisonType> = [
        .elementTagName, .schemaLocation, .noNamespaceSchemaLocation, .nodeType, .namespaceURI, .textValue,
        .processingInstructionTarget, .processingInstructionData, .elementNumAttributes, .attrValue,
        .childNodelistLength, .childLookup, .attrNameLookup,
    ]
}

/// How namespaces are read and compared (WireMock's `namespaceAwareness`).
public enum XMLNamespaceAwareness: String, Sendable, Hashable, CaseIterable {
    /// Prefixes must be bound; names compare by namespace URI and local name, prefixes and
    /// `xmlns` declarations are not compared (WireMock's default).
    case strict = "STRICT"
    /// Names compare as written (`a:b` is the whole name); `xmlns` declarations are ordinary
    /// attributes; an unbound prefix is no error.
    case none = "NONE"
}

/// The first difference found between an expected and an actual document.
package struct XMLDifference: Sendable, Hashable, CustomStringConvertible {
    /// The kind of comparison that failed.
    package var type: XMLComparisonType
    /// Where, as an XPath into the expected document (`/things[1]/thing[2]/@kind`).
    package var path: String
    /// What the expected document has there.
    package var expected: String
    /// What the actual document has there.
    package var found: String

    /// Creates a difference.
    package init(type: XMLComparisonType, path: String, expected: String, found: String) {
        self.type = type
        self.path = path
        self.expected = expected
        self.found = found
    }

    package var description: String {
        "\(type.rawValue) at \(path): expected \(expected), found \(found)"
    }
}
