import ContractKit
import Testing

/// One bound as a table row: the schema it sits in (without it), its looser and stricter
/// values as JSON (nil: not written) and as a finding tells them.
struct BoundRow: Sendable, CustomTestStringConvertible {
    var keyword: String
    var base: String
    var loose: String?
    var strict: String
    var looseText: String
    var strictText: String
    var testDescription: String { "\(keyword) \(looseText) / \(strictText)" }

    init(
        _ keyword: String, _ base: String, loose: String?, strict: String, looseText: String? = nil,
        strictText: String? = nil
    ) {
        self.keyword = keyword
        self.base = base
        self.loose = loose
        self.strict = strict
        self.looseText = looseText ?? loose ?? "none"
        self.strictText = strictText ?? strict
    }

    func schema(_ value: String?) -> String {
        let bound = value.map { ##", "\##(keyword)": \##($0)"## } ?? ""
        return ##"{"type": "object", "properties": {"v": {"## + base + bound + "}}}"
    }
}

let number = ##""type": "number""##
let string = ##""type": "string""##
let array = ##""type": "array", "items": {"type": "string"}"##
let object = ##""type": "object""##
let containing = array + ##", "contains": {"const": "red"}"##

let boundRows: [BoundRow] = [
    BoundRow("minimum", number, loose: "0", strict: "5"),
    BoundRow("minimum", number, loose: nil, strict: "5"),
    BoundRow("maximum", number, loose: "100", strict: "50"),
    BoundRow("maximum", number, loose: nil, strict: "50"),
    BoundRow("exclusiveMinimum", number, loose: "0", strict: "5"),
    BoundRow("exclusiveMinimum", number, loose: nil, strict: "5"),
    BoundRow("exclusiveMaximum", number, loose: "100", strict: "50"),
    BoundRow("exclusiveMaximum", number, loose: nil, strict: "50"),
    BoundRow("minLength", string, loose: "1", strict: "3"),
    BoundRow("minLength", string, loose: nil, strict: "3"),
    BoundRow("maxLength", string, loose: "40", strict: "20"),
    BoundRow("maxLength", string, loose: nil, strict: "20"),
    BoundRow("minItems", array, loose: "1", strict: "2"),
    BoundRow("minItems", array, loose: nil, strict: "2"),
    BoundRow("maxItems", array, loose: "10", strict: "5"),
    BoundRow("maxItems", array, loose: nil, strict: "5"),
    BoundRow("minProperties", object, loose: "1", strict: "2"),
    BoundRow("minProperties", object, loose: nil, strict: "2"),
    BoundRow("maxProperties", object, loose: "10", strict: "5"),
    BoundRow("maxProperties", object, loose: nil, strict: "5"),
    BoundRow("minContains", containing, loose: "2", strict: "3"),
    // Not written, minContains is 1.
    BoundRow("minContains", containing, loose: nil, strict: "3", looseText: "1"),
    BoundRow("maxContains", containing, loose: "5", strict: "3"),
    BoundRow("maxContains", containing, loose: nil, strict: "3"),
    BoundRow("multipleOf", number, loose: "2", strict: "4"),
    BoundRow("multipleOf", number, loose: nil, strict: "4"),
    BoundRow("pattern", string, loose: nil, strict: ##""^a""##, strictText: "'^a'"),
    BoundRow("uniqueItems", array, loose: nil, strict: "true", looseText: "false"),
]

/// How `diff` tells a bound that moved: always from the old contract to the new, whichever
/// side (request or response) the change breaks, for each bound in both directions.
@Suite struct ContractDiffBoundWordingTests {
    let helper = ContractDiffRequestTests()
    let constraints = ContractDiffConstraintTests()

    /// The findings of `diff` from `old` to `new` as a request body (or a response body): id,
    /// what it says changed, and its message.
    func findings(old: String, new: String, response: Bool) throws -> [(id: String, actual: String, message: String)] {
        let exchange = { (schema: String) in
            response
                ? constraints.exchange(request: "{}", response: schema)
                : constraints.exchange(request: schema, response: "{}")
        }
        return ContractDiff().changes(old: try helper.contract(exchange(old)), new: try helper.contract(exchange(new)))
            .map { ($0.id.rawValue, $0.actual, $0.message) }
    }

    @Test(arguments: boundRows)
    func aTightenedRequestBoundIsToldFromOldToNew(_ row: BoundRow) throws {
        let found = try findings(old: row.schema(row.loose), new: row.schema(row.strict), response: false)
        let change = "\(row.keyword) \(row.looseText) → \(row.strictText)"
        #expect(found.map(\.id) == ["request-body-bound-tightened"])
        #expect(found.map(\.actual) == [change])
        #expect(found.map(\.message) == ["'v' is bounded more tightly: \(change)"])
        // Loosened, a request breaks nothing.
        #expect(try findings(old: row.schema(row.strict), new: row.schema(row.loose), response: false).isEmpty)
    }

    @Test(arguments: boundRows)
    func aLoosenedResponseBoundIsToldFromOldToNew(_ row: BoundRow) throws {
        let found = try findings(old: row.schema(row.strict), new: row.schema(row.loose), response: true)
        let change = "\(row.keyword) \(row.strictText) → \(row.looseText)"
        #expect(found.map(\.id) == ["response-property-bound-loosened"])
        #expect(found.map(\.actual) == [change])
        #expect(found.map(\.message) == ["'v' may now be outside the old contract's bounds: \(change)"])
        // Tightened, a response breaks nothing.
        #expect(try findings(old: row.schema(row.loose), new: row.schema(row.strict), response: true).isEmpty)
    }

    @Test func aParameterBoundIsToldFromOldToNew() throws {
        let old = constraints.query(##"{"type": "integer", "maximum": 100, "minLength": 1}"##)
        let new = constraints.query(##"{"type": "integer", "maximum": 50}"##)
        let finding = try #require(
            ContractDiff().changes(old: try helper.contract(old), new: try helper.contract(new)).first)
        #expect(finding.actual == "maximum 100 → 50")
    }

    @Test func aPatternChangedIsToldFromOldToNewOnBothSides() throws {
        let old = BoundRow("pattern", string, loose: nil, strict: ##""^a""##).schema(##""^a""##)
        let new = BoundRow("pattern", string, loose: nil, strict: ##""^b""##).schema(##""^b""##)
        #expect(try findings(old: old, new: new, response: false).map(\.actual) == ["pattern '^a' → '^b'"])
        #expect(try findings(old: old, new: new, response: true).map(\.actual) == ["pattern '^a' → '^b'"])
    }
}
