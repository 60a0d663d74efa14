import PetModels

/// What the reference client must make of petmock serving one variant server-wide: the
/// rows and dropped pets it shows, or the error it reports when the pet list itself fails;
/// and what `petcontract verify --live` must find.
struct VariantExpectation: CustomStringConvertible, Sendable {
    /// The variant name given to `petmock serve --variant` (empty: the base stubs).
    let variant: String
    /// The rows, when the pet list was fetched.
    let rows: [PetVetCellViewModel]
    /// Dropped pets as `index: reason`.
    let dropped: [String]
    /// The vet requests plus the pet request petvet made (0 when the list failed).
    let requests: Int
    /// Text the error must contain when the pet list cannot be fetched (petvet exits 2).
    let failure: String?
    /// `petcontract verify --live` exit status.
    let contractExit: Int32
    /// Findings as `id level operation path`, exactly (empty for an exit-2 case with errors).
    let findings: [String]

    var description: String { variant.isEmpty ? "base stubs" : variant }

    static let base = [
        PetVetCellViewModel(petName: "Rex Smith", vetNameAndTitle: "Ann Lee, DVM"),
        PetVetCellViewModel(petName: "Bella Jones", vetNameAndTitle: "Omar Haddad, BVSc"),
        PetVetCellViewModel(petName: "Milo Garcia", vetNameAndTitle: "Ann Lee, DVM"),
        PetVetCellViewModel(petName: "Luna Chen", vetNameAndTitle: "Grace Okafor, DVM, PhD"),
    ]

    static let withoutTitles = [
        PetVetCellViewModel(petName: "Rex Smith", vetNameAndTitle: "Ann Lee"),
        PetVetCellViewModel(petName: "Bella Jones", vetNameAndTitle: "Omar Haddad"),
        PetVetCellViewModel(petName: "Milo Garcia", vetNameAndTitle: "Ann Lee"),
        PetVetCellViewModel(petName: "Luna Chen", vetNameAndTitle: "Grace Okafor"),
    ]

    static func shown(
        _ variant: String, rows: [PetVetCellViewModel] = base, dropped: [String] = [], requests: Int = 4,
        contractExit: Int32 = 0, findings: [String] = []
    ) -> VariantExpectation {
        VariantExpectation(
            variant: variant, rows: rows, dropped: dropped, requests: requests, failure: nil,
            contractExit: contractExit, findings: findings)
    }

    static func failed(
        _ variant: String, _ failure: String, contractExit: Int32 = 1, findings: [String] = []
    ) -> VariantExpectation {
        VariantExpectation(
            variant: variant, rows: [], dropped: [], requests: 0, failure: failure, contractExit: contractExit,
            findings: findings)
    }

    static func allPetsDropped(_ reason: String) -> [String] {
        (0..<4).map { "\($0): \(reason)" }
    }

    /// `type:FIELD` for a string field that pets and vets both have: every pet undecodable,
    /// so no vet is asked for, and the type change and decode failure on both operations.
    static func stringTypeChangedEverywhere(_ field: String) -> VariantExpectation {
        shown(
            "type:\(field)", rows: [], dropped: undecodablePets(field, "expected String, found number 0"),
            requests: 1, contractExit: 1,
            findings: ["GET /pets $[0]", "GET /vets/{id} $"].flatMap {
                [
                    "response-property-type-changed breaking \($0).\(field)",
                    "response-decode-failed breaking \($0).\(field)",
                ]
            })
    }

    /// Every pet dropped as undecodable at `field`, the URL written `API`.
    static func undecodablePets(_ field: String, _ problem: String) -> [String] {
        (0..<4).map { "\($0): API/pets: cannot decode [PetJsonModel] at $[\($0)].\(field): \(problem)" }
    }

    /// Every hand-written variant in `Stubs/` and the generated ones, with what each must give.
    static let all: [VariantExpectation] = [
        shown(""),
        shown(
            "missing-last-name",
            rows: [
                base[0], PetVetCellViewModel(petName: "Bella", vetNameAndTitle: "Omar Haddad, BVSc"), base[2], base[3],
            ],
            findings: ["response-optional-property-missing warning GET /pets $[1].lastName"]),
        // One pet that does not decode loses only its own row.
        shown(
            "vet-id-string", rows: [base[0], base[2], base[3]],
            dropped: [#"1: API/pets: cannot decode [PetJsonModel] at $[1].vetId: expected Int, found string "2""#],
            requests: 3, contractExit: 1,
            findings: [
                "response-property-type-changed breaking GET /pets $[1].vetId",
                "response-decode-failed breaking GET /pets $[1].vetId",
            ]),
        shown(
            "vet-title-null",
            rows: [
                base[0], PetVetCellViewModel(petName: "Bella Jones", vetNameAndTitle: "Omar Haddad"), base[2], base[3],
            ],
            findings: ["response-optional-property-null warning GET /vets/{id} $.title"]),
        shown(
            "vet-id-renamed", rows: [], dropped: allPetsDropped("pet has no 'vetId'"), requests: 1,
            contractExit: 1, findings: ["response-property-probably-renamed breaking GET /pets $[0].vetId"]),
        failed(
            "pets-wrapped", "cannot decode [PetJsonModel] at $: expected an array, found object",
            findings: [
                "response-property-type-changed breaking GET /pets $", "response-decode-failed breaking GET /pets $",
            ]),
        failed(
            "truncated-json", "found invalid JSON (JSON ends early",
            findings: ["response-body-truncated breaking GET /pets $"]),
        failed("empty-body", "found an empty body", findings: ["response-body-empty breaking GET /pets $"]),
        failed(
            "proxy-html-502", "HTTP 502 Bad Gateway: '<html>",
            findings: ["response-status-unexpected breaking GET /pets $"]),
        failed(
            "server-error-500", "HTTP 500 Internal Server Error: 'Database connection lost' (code 500)",
            findings: ["response-status-unexpected breaking GET /pets $"]),
        failed(
            "maintenance-503", "down for maintenance (503): 'Down for maintenance until 02:00 UTC'",
            findings: ["response-status-unexpected breaking GET /pets $"]),
        shown("slow"),
        failed("connection-reset", "Connection reset by peer", contractExit: 2),
        // Generated variants apply to every stub that has the field: pets and vets alike.
        shown(
            "missing:lastName", rows: [],
            dropped: [
                "0: vet 1 has no 'lastName'", "1: vet 2 has no 'lastName'", "2: vet 1 has no 'lastName'",
                "3: vet 3 has no 'lastName'",
            ],
            contractExit: 1,
            findings: [
                "response-optional-property-missing warning GET /pets $[0].lastName",
                "response-required-property-missing breaking GET /vets/{id} $.lastName",
            ]),
        shown(
            "missing:firstName", rows: [], dropped: allPetsDropped("pet has no 'firstName'"),
            requests: 1, contractExit: 1,
            findings: [
                "response-required-property-missing breaking GET /pets $[0].firstName",
                "response-required-property-missing breaking GET /vets/{id} $.firstName",
            ]),
        shown(
            "missing:vetId", rows: [], dropped: allPetsDropped("pet has no 'vetId'"), requests: 1,
            contractExit: 1,
            findings: [
                "response-required-property-missing breaking GET /pets $[0].vetId"
            ]),
        // A JSONPath drift changes only the place it selects: one pet of the list; the single
        // pet and vet bodies, where it selects nothing, are served as they are.
        shown(
            "missing:$[1].vetId", rows: [base[0], base[2], base[3]], dropped: ["1: pet has no 'vetId'"],
            requests: 3, contractExit: 1, findings: ["response-required-property-missing breaking GET /pets $[1].vetId"]
        ),
        shown(
            "missing:title", rows: withoutTitles,
            findings: [
                "response-optional-property-missing warning GET /vets/{id} $.title"
            ]),
        shown(
            "null:title", rows: withoutTitles,
            findings: [
                "response-optional-property-null warning GET /vets/{id} $.title"
            ]),
        shown(
            "null:vetId", rows: [], dropped: allPetsDropped("pet has no 'vetId'"), requests: 1,
            contractExit: 1,
            findings: [
                "response-required-property-null breaking GET /pets $[0].vetId"
            ]),
        shown(
            "null:firstName", rows: [], dropped: allPetsDropped("pet has no 'firstName'"), requests: 1,
            contractExit: 1,
            findings: [
                "response-required-property-null breaking GET /pets $[0].firstName",
                "response-required-property-null breaking GET /vets/{id} $.firstName",
            ]),
        shown(
            "null:lastName", rows: [],
            dropped: [
                "0: vet 1 has no 'lastName'", "1: vet 2 has no 'lastName'", "2: vet 1 has no 'lastName'",
                "3: vet 3 has no 'lastName'",
            ],
            contractExit: 1,
            findings: [
                "response-optional-property-null warning GET /pets $[0].lastName",
                "response-required-property-null breaking GET /vets/{id} $.lastName",
            ]),
        // A type change is a decoding error even for an optional property (plain Codable):
        // each pet (or vet) that has it loses its rows.
        stringTypeChangedEverywhere("firstName"),
        stringTypeChangedEverywhere("lastName"),
        shown(
            "type:title", rows: [],
            dropped: [(0, 1), (1, 2), (2, 1), (3, 3)].map { pet, vet in
                "\(pet): vet \(vet) could not be fetched: API/vets/\(vet): cannot decode VetJsonModel at $.title: "
                    + "expected String, found number 0"
            },
            contractExit: 1,
            findings: [
                "response-property-type-changed breaking GET /vets/{id} $.title",
                "response-decode-failed breaking GET /vets/{id} $.title",
            ]),
        shown(
            "type:vetId", rows: [],
            dropped: ["1", "2", "1", "3"].enumerated().map { index, vetId in
                "\(index): API/pets: cannot decode [PetJsonModel] at $[\(index)].vetId: expected Int, "
                    + "found string \"\(vetId)\""
            },
            requests: 1, contractExit: 1,
            findings: [
                "response-property-type-changed breaking GET /pets $[0].vetId",
                "response-decode-failed breaking GET /pets $[0].vetId",
            ]),
        shown(
            "rename:vetId=practitionerId", rows: [], dropped: allPetsDropped("pet has no 'vetId'"),
            requests: 1, contractExit: 1,
            findings: [
                "response-property-probably-renamed breaking GET /pets $[0].vetId"
            ]),
        shown(
            "rename:title=degree", rows: withoutTitles, contractExit: 1,
            findings: [
                "response-property-probably-renamed breaking GET /vets/{id} $.title"
            ]),
        shown(
            "rename:lastName=surname", rows: [],
            dropped: [
                "0: vet 1 has no 'lastName'", "1: vet 2 has no 'lastName'", "2: vet 1 has no 'lastName'",
                "3: vet 3 has no 'lastName'",
            ],
            contractExit: 1,
            findings: [
                "response-property-probably-renamed breaking GET /pets $[0].lastName",
                "response-property-probably-renamed breaking GET /vets/{id} $.lastName",
            ]),
        failed(
            "truncated", "found invalid JSON (JSON ends early",
            findings: ["GET /pets", "GET /vets/{id}"].map {
                "response-body-truncated breaking \($0) $"
            }),
        failed(
            "empty", "found an empty body",
            findings: ["GET /pets", "GET /vets/{id}"].map {
                "response-body-empty breaking \($0) $"
            }),
        failed(
            "html-error", "HTTP 502 Bad Gateway: '<html>",
            findings: ["GET /pets", "GET /vets/{id}"].map {
                "response-status-unexpected breaking \($0) $"
            }),
        shown("slow:200"),
        failed("reset", "Connection reset by peer", contractExit: 2),
    ]
}
