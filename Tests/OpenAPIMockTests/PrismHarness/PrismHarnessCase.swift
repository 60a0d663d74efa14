import Foundation
import Testing

/// One case file of Prism's test harness (`Fixtures/prism-harness/`, see its README): the
/// sections between `====name====` lines, and the server's command line read into petmock's
/// options.
struct PrismHarnessCase: Sendable, CustomTestStringConvertible {
    /// The file's path under `prism-harness/` (`security/security-AC-1.oas3.txt`).
    let name: String
    /// `====test====`: what the case checks.
    let title: String
    /// `====spec====`: the document, as text.
    let spec: String
    /// `====server====`, read.
    let server: Server
    /// `====command====`, read.
    let command: CurlCommand
    /// The expected output and how it is compared.
    let expectation: PrismExpectation

    var testDescription: String { name }

    /// How Prism's server was started, as petmock's options.
    struct Server: Sendable, Equatable {
        /// `--dynamic`/`-d`: bodies generated per request.
        var dynamic = false
        /// `--errors`: an invalid answer is refused.
        var errors = false
        /// `--cors=false` turns CORS off (on by default for a document).
        var cors = true
        /// `proxy`'s upstream URL (`http://httpbin.org`), nil for `mock`.
        var upstream: String?
    }

    /// What went wrong reading a file: the file, and what was found where.
    struct FormatError: Error, CustomStringConvertible {
        let file: String
        let message: String
        var description: String { "\(file): \(message)" }
    }

    /// The sections a case file may have; Prism's harness knows no others.
    static let sectionNames: Set<String> = [
        "test", "spec", "server", "command", "expect", "expect-loose", "expect-keysOnly",
    ]

    /// Reads a case file.
    init(name: String, text: String) throws(FormatError) {
        self.name = name
        var sections: [String: String] = [:]
        var current: String?
        var lines: [Substring] = []
        func close() throws(FormatError) {
            guard let current else { return }
            guard sections[current] == nil else { throw FormatError(file: name, message: "'\(current)' twice") }
            sections[current] = lines.joined(separator: "\n")
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.hasSuffix("\r") ? line.dropLast() : line
            if trimmed.hasPrefix("===="), trimmed.hasSuffix("===="), trimmed.count > 8 {
                let word = String(trimmed.dropFirst(4).dropLast(4))
                guard let known = Self.sectionNames.first(where: { $0.lowercased() == word.lowercased() }) else {
                    throw FormatError(file: name, message: "unknown section '\(word)'")
                }
                try close()
                current = known
                lines = []
            } else if current != nil {
                lines.append(trimmed)
            } else if !trimmed.allSatisfy(\.isWhitespace) {
                throw FormatError(file: name, message: "text before the first section: '\(trimmed)'")
            }
        }
        try close()
        func section(_ key: String) throws(FormatError) -> String {
            guard let value = sections[key] else { throw FormatError(file: name, message: "no '====\(key)===='") }
            return value
        }
        title = try section("test").trimmingCharacters(in: .whitespacesAndNewlines)
        spec = try section("spec")
        do {
            server = try Self.server(try section("server"))
            command = try CurlCommand(parsing: try section("command").trimmingCharacters(in: .whitespacesAndNewlines))
        } catch let error as FormatError {
            throw error
        } catch {
            throw FormatError(file: name, message: "\(error)")
        }
        let kinds: [(String, PrismExpectation.Kind)] = [
            ("expect", .exact), ("expect-loose", .loose), ("expect-keysOnly", .keysOnly),
        ]
        let given = kinds.filter { sections[$0.0] != nil }
        guard given.count == 1, let (key, kind) = given.first, let text = sections[key] else {
            throw FormatError(file: name, message: "expected one of expect, expect-loose, expect-keysOnly")
        }
        do {
            expectation = try PrismExpectation(output: text, kind: kind)
        } catch {
            throw FormatError(file: name, message: "\(key): \(error)")
        }
    }

    /// Prism's command line (`mock -p 4010 ${document} --errors`,
    /// `proxy -p 4010 ${document} http://httpbin.org`) as petmock's options; an option this
    /// table does not know is an error.
    static func server(_ line: String) throws(FormatError) -> Server {
        var words = line.split(whereSeparator: \.isWhitespace).map(String.init)[...]
        var server = Server()
        guard let mode = words.popFirst(), mode == "mock" || mode == "proxy" else {
            throw FormatError(file: "server", message: "expected 'mock' or 'proxy' in '\(line)'")
        }
        var positional: [String] = []
        while let word = words.popFirst() {
            switch word {
            case "-p", "--port", "-h", "--host":
                // The address: petmock's is the test's own (no socket, or port 0).
                guard words.popFirst() != nil else {
                    throw FormatError(file: "server", message: "\(word) needs a value")
                }
            case "-d", "--dynamic": server.dynamic = true
            case "--errors": server.errors = true
            case "--cors=false": server.cors = false
            // json-schema-faker's option: petmock's generator fills optional properties only
            // where the schema asks for them (see PrismHarnessTests' differences).
            case "--json-schema-faker-fillProperties=false": break
            case "--multiprocess", "-m": break
            default:
                guard !word.hasPrefix("-") else {
                    throw FormatError(file: "server", message: "unknown option '\(word)' in '\(line)'")
                }
                positional.append(word)
            }
        }
        switch (mode, positional.count) {
        case ("mock", 1) where positional[0] == "${document}": break
        case ("proxy", 2) where positional[0] == "${document}": server.upstream = positional[1]
        default: throw FormatError(file: "server", message: "unexpected arguments \(positional) in '\(line)'")
        }
        return server
    }
}
