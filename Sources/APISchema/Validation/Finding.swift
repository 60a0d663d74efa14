/// One difference between what the contract says and what an API (or a newer contract) does.
///
/// Findings are data: the engine collects them, reporters render them. Repeats across array
/// items are collapsed into one finding with a ``count`` and the first concrete ``path``.
public struct Finding: Sendable, Hashable {
    /// The stable kind, `response-property-type-changed`.
    public var id: FindingID
    /// How bad it is.
    public var level: FindingLevel
    /// The operation, `GET /pets`.
    public var operation: String
    /// The URL called (or the stub file), when there was one.
    public var url: String?
    /// The HTTP status of the response, when there was one.
    public var status: Int?
    /// Where in the body: a JSONPath with the first concrete index, `$[2].vetId`; `$` for the body.
    public var path: String
    /// How many places share this finding (array items, responses).
    public var count: Int
    /// What the contract expects there.
    public var expected: String
    /// What was found: a short excerpt.
    public var actual: String
    /// The Swift property or type involved, `PetJsonModel.vetId: Int?`.
    public var swift: String?
    /// One line saying what is wrong.
    public var message: String
    /// A suggestion, such as the probable new name of a renamed key.
    public var hint: String?
    /// The response body around ``path``, for the HTML report (the other formats leave it
    /// out); nil for a diff, or where there was no body to quote.
    public var excerpt: BodyExcerpt?

    /// Creates a finding; the level defaults to the id's.
    public init(
        id: FindingID, level: FindingLevel? = nil, operation: String, url: String? = nil, status: Int? = nil,
        path: String = "$", count: Int = 1, expected: String, actual: String, swift: String? = nil, message: String,
        hint: String? = nil, excerpt: BodyExcerpt? = nil
    ) {
        self.id = id
        self.level = level ?? id.level
        self.operation = operation
        self.url = url
        self.status = status
        self.path = path
        self.count = count
        self.expected = expected
        self.actual = actual
        self.swift = swift
        self.message = message
        self.hint = hint
        self.excerpt = excerpt
    }
}

/// How bad a finding is, after oasdiff: breaking fails the check, warning fails it with
/// `--strict`, info never does.
public enum FindingLevel: String, Sendable, Hashable, CaseIterable, Comparable {
    /// The app will break.
    case breaking
    /// The app degrades.
    case warning
    /// Worth knowing.
    case info

    public static func < (lhs: FindingLevel, rhs: FindingLevel) -> Bool {
        lhs.rank < rhs.rank
    }

    private var rank: Int {
        switch self {
        case .breaking: 0
        case .warning: 1
        case .info: 2
        }
    }
}

/// The stable ids of findings (DESIGN.md's table, plus the contract diff's operation-level ids).
public enum FindingID: String, Sendable, Hashable, CaseIterable {
    case requiredPropertyMissing = "response-required-property-missing"
    case optionalPropertyMissing = "response-optional-property-missing"
    case propertyTypeChanged = "response-property-type-changed"
    case requiredPropertyNull = "response-required-property-null"
    case optionalPropertyNull = "response-optional-property-null"
    case propertyProbablyRenamed = "response-property-probably-renamed"
    case propertyUnexpected = "response-property-unexpected"
    case bodyNotJSON = "response-body-not-json"
    case bodyEmpty = "response-body-empty"
    case bodyTruncated = "response-body-truncated"
    case statusUnexpected = "response-status-unexpected"
    case mediaTypeUnexpected = "response-media-type-unexpected"
    case decodeFailed = "response-decode-failed"
    /// A value from one response names a resource another operation answers 4xx for.
    case referenceDangling = "response-reference-dangling"
    /// Diff: an operation of the old contract is gone.
    case operationRemoved = "operation-removed"
    /// Diff: the new contract has an operation the old one lacked.
    case operationAdded = "operation-added"
    /// Diff: a documented response status is gone.
    case responseStatusRemoved = "response-status-removed"
    /// Diff: a response status is newly documented.
    case responseStatusAdded = "response-status-added"
    /// Diff: an enum in a response allows a value the old contract did not.
    case enumValueAdded = "response-property-enum-value-added"
    /// A value outside its `enum` (or `const`).
    case valueNotInEnum = "response-value-not-in-enum"
    /// A number outside `minimum`/`maximum`/`exclusive*`, not a `multipleOf`, or outside its
    /// `int32`/`int64` format's range.
    case valueOutOfRange = "response-value-out-of-range"
    /// A value that matches the schema of a `not`.
    case valueExcluded = "response-value-excluded"
    /// A string that is not its `format` (`date-time`, `email`, `uuid`, ...).
    case stringFormatMismatch = "response-string-format-mismatch"
    /// A string shorter than `minLength` or longer than `maxLength`.
    case stringLengthOutOfRange = "response-string-length-out-of-range"
    /// A string with no match of its `pattern`.
    case stringPatternMismatch = "response-string-pattern-mismatch"
    /// An array with fewer than `minItems` or more than `maxItems` elements.
    case arraySizeOutOfRange = "response-array-size-out-of-range"
    /// An array with `uniqueItems` that repeats an element.
    case arrayItemsNotUnique = "response-array-items-not-unique"
    /// A member the contract forbids in a response: `additionalProperties: false`, or a
    /// `writeOnly` property.
    case propertyNotAllowed = "response-property-not-allowed"
    /// A value that matches more than one branch of a `oneOf` (with no discriminator to choose).
    case oneOfAmbiguous = "response-value-matches-several-branches"
    /// An object with fewer or more members than `minProperties`/`maxProperties` allow.
    case objectSizeOutOfRange = "response-object-size-out-of-range"
    /// Diff: an operation gained a required parameter.
    case requestParameterAddedRequired = "request-parameter-added-required"
    /// Diff: a parameter is gone (the server now ignores what the app sends).
    case requestParameterRemoved = "request-parameter-removed"
    /// Diff: an optional parameter became required.
    case requestParameterBecameRequired = "request-parameter-became-required"
    /// Diff: a parameter's type changed.
    case requestParameterTypeChanged = "request-parameter-type-changed"
    /// Diff: a parameter's enum lost a value the app may send.
    case requestParameterEnumValueRemoved = "request-parameter-enum-value-removed"
    /// Diff: the operation now requires a body it did not take.
    case requestBodyAddedRequired = "request-body-added-required"
    /// Diff: a request body media type is gone.
    case requestBodyMediaTypeRemoved = "request-body-media-type-removed"
    /// Diff: a request body gained a required property.
    case requestBodyPropertyAddedRequired = "request-body-property-added-required"
    /// Diff: an optional request body property became required.
    case requestBodyPropertyBecameRequired = "request-body-property-became-required"
    /// Diff: a request body value's type (or format) changed.
    case requestBodyPropertyTypeChanged = "request-body-property-type-changed"
    /// Diff: a request body enum lost a value the app may send.
    case requestBodyEnumValueRemoved = "request-body-enum-value-removed"
    /// Diff: a parameter's bounds (minimum, maximum, lengths, pattern, ...) became stricter.
    case requestParameterBoundTightened = "request-parameter-bound-tightened"
    /// Diff: a request body value's bounds became stricter.
    case requestBodyBoundTightened = "request-body-bound-tightened"
    /// Diff: a request body `oneOf`/`anyOf` lost a branch the app may send.
    case requestBodyBranchRemoved = "request-body-branch-removed"
    /// Diff: a request body discriminator lost a value, or a value names another schema.
    case requestBodyDiscriminatorMappingChanged = "request-body-discriminator-mapping-changed"
    /// Diff: a response value's bounds loosened or went (it may be what the app never saw).
    case responseBoundLoosened = "response-property-bound-loosened"
    /// Diff: a response `oneOf`/`anyOf` gained a branch the app may not handle.
    case responseBranchAdded = "response-property-branch-added"
    /// Diff: a response discriminator gained a value, or a value names another schema.
    case responseDiscriminatorMappingChanged = "response-discriminator-mapping-changed"

    /// The level a finding of this id has.
    public var level: FindingLevel {
        switch self {
        case .optionalPropertyMissing, .optionalPropertyNull, .enumValueAdded, .referenceDangling,
            .propertyNotAllowed, .requestParameterRemoved, .oneOfAmbiguous:
            .warning
        case .propertyUnexpected, .operationAdded, .responseStatusAdded: .info
        default: .breaking
        }
    }

    /// One line describing the id, for SARIF rules and documentation.
    public var summary: String {
        switch self {
        case .requiredPropertyMissing: "A property the app needs is missing"
        case .optionalPropertyMissing: "An optional property is missing"
        case .propertyTypeChanged: "A value has another JSON type than the contract says"
        case .requiredPropertyNull: "A property the app needs is null"
        case .optionalPropertyNull: "An optional property is null"
        case .propertyProbablyRenamed: "A property is missing and a new one of a compatible type appeared"
        case .propertyUnexpected: "A property the contract does not know"
        case .bodyNotJSON: "The body is not JSON"
        case .bodyEmpty: "The body is empty"
        case .bodyTruncated: "The body is JSON cut short"
        case .statusUnexpected: "A status the contract does not document (or not a success where one was needed)"
        case .mediaTypeUnexpected: "A media type other than the contract's"
        case .decodeFailed: "The app's Codable type threw while decoding the body"
        case .referenceDangling: "An id found in one response names a resource that is not there"
        case .operationRemoved: "An operation was removed"
        case .operationAdded: "An operation was added"
        case .responseStatusRemoved: "A documented response status was removed"
        case .responseStatusAdded: "A response status was added"
        case .enumValueAdded: "An enum gained a value the app may not know"
        case .valueNotInEnum: "A value outside its enum or const"
        case .valueOutOfRange: "A number outside its minimum, maximum, multipleOf or integer format"
        case .valueExcluded: "A value that matches the schema its 'not' excludes"
        case .stringFormatMismatch: "A string that is not its format (date-time, email, uuid, ...)"
        case .stringLengthOutOfRange: "A string shorter than minLength or longer than maxLength"
        case .stringPatternMismatch: "A string that does not match its pattern"
        case .arraySizeOutOfRange: "An array with fewer than minItems or more than maxItems elements"
        case .objectSizeOutOfRange: "An object with fewer than minProperties or more than maxProperties members"
        case .arrayItemsNotUnique: "An array with uniqueItems that repeats an element"
        case .oneOfAmbiguous: "A value that matches more than one branch of a oneOf"
        case .propertyNotAllowed:
            "A property the contract forbids in a response (additionalProperties: false, writeOnly)"
        case .requestParameterAddedRequired: "An operation gained a required parameter"
        case .requestParameterRemoved: "A request parameter was removed"
        case .requestParameterBecameRequired: "A request parameter became required"
        case .requestParameterTypeChanged: "A request parameter's type changed"
        case .requestParameterEnumValueRemoved: "A request parameter's enum lost a value"
        case .requestBodyAddedRequired: "An operation now requires a request body"
        case .requestBodyMediaTypeRemoved: "A request body media type was removed"
        case .requestBodyPropertyAddedRequired: "A request body gained a required property"
        case .requestBodyPropertyBecameRequired: "A request body property became required"
        case .requestBodyPropertyTypeChanged: "A request body value's type changed"
        case .requestBodyEnumValueRemoved: "A request body enum lost a value"
        case .requestParameterBoundTightened: "A request parameter's bounds became stricter"
        case .requestBodyBoundTightened: "A request body value's bounds became stricter"
        case .requestBodyBranchRemoved: "A request body oneOf/anyOf lost a branch"
        case .requestBodyDiscriminatorMappingChanged: "A request body discriminator lost or moved a value"
        case .responseBoundLoosened: "A response value's bounds loosened or were removed"
        case .responseBranchAdded: "A response oneOf/anyOf gained a branch"
        case .responseDiscriminatorMappingChanged: "A response discriminator gained or moved a value"
        }
    }
}
