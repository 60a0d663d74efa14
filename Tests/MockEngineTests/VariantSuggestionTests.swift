import MockEngine
import Testing

/// A mistyped variant name names the variant meant.
@Suite struct VariantSuggestionTests {
    @Test(arguments: [
        (VariantError(name: "truncatd", reason: "no mapping has this metadata.variant"), "truncated"),
        (
            VariantError(
                name: "pets-wraped", reason: "no mapping has this metadata.variant", knownVariants: ["pets-wrapped"]),
            "pets-wrapped"
        ),
        (VariantError(name: "mising:vetId", reason: "'mising' is not a generated variant"), "missing:vetId"),
        (VariantError(name: "missing:vetid", reason: "no field", knownFields: ["name", "vetId"]), "missing:vetId"),
        (
            VariantError(name: "rename:nmae=title", reason: "no field", knownFields: ["name", "vetId"]),
            "rename:name=title"
        ),
    ])
    func aMistypedVariantSuggestsTheNearest(error: VariantError, meant: String) {
        #expect(error.description.contains("(did you mean '\(meant)'?)"), "\(error)")
    }

    @Test func aVariantNothingLikeAnyOtherSuggestsNothing() {
        let error = VariantError(name: "qqqqqq", reason: "no mapping has this metadata.variant", knownVariants: ["a"])
        #expect(!error.description.contains("did you mean"))
    }
}
