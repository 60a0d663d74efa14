import ArgumentKit
import Testing

/// Arguments declared once with their type and default, read through the declaration.
@Suite struct ArgumentTests {
    enum Format: String, CaseIterable, Sendable { case text, json }

    static let stubs = Argument<String>.option("stubs", value: "DIR", default: "Stubs", help: "The folder.")
    static let port = Argument<Int>.number("port", short: "p", default: 8080, in: 0...65535, help: "The port.")
    static let loops = Argument<Int?>.number("event-loops", in: 1...256, help: "Loops.")
    static let watch = Argument<Bool>.flag("watch", help: "Reload.")
    static let variant = Argument<String?>.option("variant", value: "NAME", help: "A variant.")
    static let redact = Argument<[String]>.repeated("redact", value: "HEADER", help: "Never write it.")
    static let format = Argument<Format>.choice("format", default: .text, help: "text or json.")
    static let level = Argument<Format?>.choice("level", help: "Optional choice.")
    static let target = Argument<String>.requiredHTTPURL("target", help: "The API.")
    static let header = Argument.repeated("header", short: "H", help: "A header.", parsedBy: HeaderLine.init(parsing:))

    struct HeaderLine: Sendable, Equatable {
        struct Refused: Error, CustomStringConvertible { var description: String { "'NAME: VALUE'" } }
        let name: String
        init(parsing text: String) throws(Refused) {
            guard let colon = text.firstIndex(of: ":") else { throw Refused() }
            name = String(text[..<colon])
        }
    }

    static let spec = CommandSpec(
        name: "tool run", abstract: "Runs.",
        arguments: [stubs, port, loops, watch, variant, redact, format, level, target, header])

    @Test func valuesAndDefaultsComeTypedFromTheDeclarations() throws {
        let given = try Self.spec.parse([
            "--target", "http://127.0.0.1:1/api", "-p", "9", "--watch", "--redact", "X-A", "--redact=X-B",
            "--format", "json", "-H", "X-Trace: 1",
        ])
        #expect(given[Self.stubs] == "Stubs")
        #expect(given[Self.port] == 9)
        #expect(given[Self.loops] == nil)
        #expect(given[Self.watch])
        #expect(given[Self.variant] == nil)
        #expect(given[Self.redact] == ["X-A", "X-B"])
        #expect(given[Self.format] == .json)
        #expect(given[Self.level] == nil)
        #expect(given[Self.target] == "http://127.0.0.1:1/api")
        #expect(given[Self.header].map(\.name) == ["X-Trace"])
        #expect(given.isPresent(Self.port))
        #expect(!given.isPresent(Self.stubs))
        #expect(Self.spec.help.contains("-p, --port <n>") && Self.spec.help.contains("(default: 8080)"))
    }

    @Test(arguments: [
        (["--port", "70000"], "--port", "70000"),
        (["--port", "x"], "--port", "x"),
        (["--event-loops", "0"], "--event-loops", "0"),
        (["--format", "xml"], "--format", "xml"),
        (["--level", "loud"], "--level", "loud"),
        (["--target", "127.0.0.1:1"], "--target", "127.0.0.1:1"),
        (["-H", "no colon"], "--header", "no colon"),
    ])
    func aBadValueIsRefusedWhenParsedNamingTheOption(words: [String], option: String, value: String) {
        let withTarget = words.contains("--target") ? words : words + ["--target", "http://127.0.0.1:1"]
        #expect {
            try Self.spec.parse(withTarget)
        } throws: { error in
            guard case .invalidValue(let named, let found, _) = error as? ArgumentError else { return false }
            return named == option && found == value
        }
    }

    @Test func aRequiredOptionMustBeGiven() {
        #expect {
            try Self.spec.parse(["--watch"])
        } throws: { error in
            guard case .missingOption(let named) = error as? ArgumentError else { return false }
            return named.hasPrefix("--target")
        }
    }

    @Test func mapTurnsAValueIntoAnotherAndMayRefuseIt() throws {
        let even = Argument<Int>.number("n", default: 2, in: 0...100, help: "An even number.").map {
            number throws(ArgumentError) in
            guard number.isMultiple(of: 2) else {
                throw .invalidValue(option: "--n", value: "\(number)", expected: "an even number")
            }
            return number / 2
        }
        let spec = CommandSpec(name: "half", abstract: "Halves.", arguments: [even])
        #expect(try spec.parse(["--n", "10"])[even] == 5)
        #expect(try spec.parse([])[even] == 1)
        #expect(throws: ArgumentError.self) { try spec.parse(["--n", "7"]) }
    }
}
