import APISchema
import Foundation
import JSONKit
import PetAppContract
import Testing

@testable import ContractKit

/// The HTML report: what it shows, that nothing from outside can act in it, the body excerpt
/// around each finding and its bounds. `Tests/e2e/html-report.sh` checks it in Chromium.
@Suite struct HTMLReporterTests {
    func html(_ report: VerificationReport, strict: Bool = false) -> String {
        ReportRenderer(strict: strict).render(report, as: .html)
    }

    /// How many times `needle` occurs in `text`.
    func occurrences(of needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }

    /// The findings of one response the pet contract checks.
    func validate(_ body: String, operation: String = "GET /pets") throws -> [Finding] {
        let (contract, models) = try PetAPIProvider.make()
        let validator = ContractValidator(contract: contract, models: models)
        let response = ObservedResponse(url: "http://api.test/pets", status: 200, body: Array(body.utf8))
        return validator.validate(response, for: try #require(contract.operation(named: operation))).findings
    }

    @Test func showsEveryLevelTheCountsAndWhatCouldNotBeVerified() {
        let page = html(ReporterTests.report)
        #expect(page.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"))
        #expect(page.hasSuffix("</html>\n"))
        #expect(page.contains("<title>petcontract: 1 breaking, 1 warning, 1 info, 1 error</title>"))
        #expect(page.contains("<p class=\"verdict failed\">Failed: breaking drift</p>"))
        for level in ["breaking", "warning", "info"] {
            #expect(occurrences(of: "<article class=\"item finding \(level)\" data-level=\"\(level)\"", in: page) == 1)
            #expect(page.contains("<li class=\"count \(level)\"><b>1</b> \(level)</li>"))
            #expect(page.contains("<input type=\"checkbox\" data-level=\"\(level)\" checked> \(level) (1)"))
        }
        #expect(page.contains("<li class=\"count error\"><b>1</b> could not verify</li>"))
        #expect(page.contains("<article class=\"item error\" data-level=\"error\">"))
        #expect(page.contains("timed out: Operation timed out after 10000 milliseconds"))
        // The renamed key's finding, in full.
        #expect(page.contains("<code class=\"path\">$[0].vetId</code>"))
        #expect(page.contains("<dt>Swift</dt><dd><code class=\"swift\">PetJsonModel.vetId: Int?</code></dd>"))
        #expect(page.contains("<dt>expected</dt><dd><code>&#39;vetId&#39; (integer)</code></dd>"))
        #expect(page.contains("<dt>found</dt><dd><code>&#39;practitionerId&#39;: 1</code></dd>"))
        #expect(page.contains("<dt>count</dt><dd>4 occurrences, the first shown</dd>"))
        #expect(
            page.contains(
                "<a href=\"http://127.0.0.1:8081/api/pets\" rel=\"noreferrer\"><code>http://127.0.0.1:8081/api/pets"
                    + "</code></a> <span class=\"status\">(200)</span>"))
        #expect(page.contains("<dt>hint</dt><dd>rename &#39;vetId&#39; to &#39;practitionerId&#39;"))
        // The summary facts, the operation without findings, the notes and the ignored count.
        #expect(page.contains("<dt>Target</dt><dd><code>http://127.0.0.1:8081/api</code></dd>"))
        #expect(page.contains("<dt>Contract</dt><dd><code>Contracts/petapi.openapi.json</code></dd>"))
        #expect(page.contains("<dt>Operations</dt><dd>4: <code>GET /pets</code>"))
        #expect(page.contains("<dt>Ignored</dt><dd>1 (accepted by the ignore file)</dd>"))
        #expect(page.contains("<li>GET /owners: not called (only GET operations are verified live)</li>"))
        // The filter: inline, allowed by the page's policy through its hash, nothing fetched.
        #expect(occurrences(of: "<script", in: page) == 1)
        #expect(page.contains("addEventListener(\"change\", update)"))
        #expect(!page.contains(" src=") && !page.contains("<link"))
        #expect(page.contains("default-src 'none'"))
    }

    @Test func thePolicyNamesTheHashOfThePageScript() throws {
        #expect(
            SHA256.digest(Array("abc".utf8)).map { String(format: "%02x", $0) }.joined()
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            Data(SHA256.digest(Array(String(repeating: "a", count: 1_000).utf8))).base64EncodedString()
                == "Qe3s5C1j6Nm/UVqbppMuHCDLyfWl0TRkWttdsblzfqM=")
        let page = html(ReporterTests.report)
        let script = try #require(page.firstMatch(of: /<script>([^<]*)<\/script>/)?.1)
        let hash = "sha256-" + Data(SHA256.digest(Array(script.utf8))).base64EncodedString()
        #expect(page.contains("script-src '\(hash)'"))
        #expect(html(ReporterTests.report) == page, "a pure function of the report")
    }

    @Test func strictCountsWarningsInTheVerdict() {
        var report = ReporterTests.report
        report.findings.removeAll { $0.level == .breaking }
        #expect(html(report).contains("<p class=\"verdict unverified\">Could not verify everything</p>"))
        #expect(html(report, strict: true).contains("<p class=\"verdict failed\">Failed: warnings (--strict)</p>"))
        report.errors = []
        #expect(html(report).contains("<p class=\"verdict passed\">Passed: nothing breaking</p>"))
    }

    static let hostile =
        #"<script>document.title='pwned';window.__pwned=1</script> "quoted" & </style><img src=x onerror="window.__pwned=2">"#

    @Test func escapesEveryStringFromOutside() {
        let h = HTMLReporterTests.hostile
        let report = VerificationReport(
            target: "http://x.test/" + h, contract: "c" + h, operations: ["GET /" + h],
            findings: [
                Finding(
                    id: .propertyTypeChanged, operation: "GET /" + h, url: "javascript:alert(1)//" + h, status: 200,
                    path: "$.a" + h, expected: "e" + h, actual: "a" + h, swift: "S" + h, message: "m" + h,
                    hint: "h" + h,
                    excerpt: BodyExcerpt(location: "$" + h, text: "{\n  \"k\": \"" + h + "\"\n}", highlight: 4..<9))
            ],
            errors: [VerificationError(operation: "GET /" + h, url: "u" + h, message: "e" + h)],
            notes: ["n" + h], decodeCheck: .partial(withoutModel: ["T" + h]))
        let page = html(report)
        #expect(occurrences(of: "<script", in: page) == 1, "only the page's own script")
        #expect(occurrences(of: "</style>", in: page) == 1, "only the end of the page's own style")
        #expect(!page.contains("<img"))
        #expect(!page.contains("href=\"javascript"), "only http(s) URLs become links")
        let escaped =
            "&lt;script&gt;document.title=&#39;pwned&#39;;window.__pwned=1&lt;/script&gt; &quot;quoted&quot; &amp; "
            + "&lt;/style&gt;&lt;img src=x onerror=&quot;window.__pwned=2&quot;&gt;"
        // target, contract, operations (twice: facts and section), the finding's eight strings,
        // the excerpt's location, the error's URL and message, the note, the type, the footer.
        #expect(occurrences(of: escaped, in: page) >= 17, "\(occurrences(of: escaped, in: page))")
        #expect(page.contains("<title>petcontract: 1 breaking, 0 warnings, 0 info, 1 error</title>"))
    }

    @Test func controlAndBidirectionalCharactersAreShownNotActed() {
        let report = VerificationReport(
            target: "t\u{1B}[2J\u{202E}x", contract: "c",
            findings: [
                Finding(id: .propertyUnexpected, operation: "GET /a", expected: "x", actual: "a\u{0}b", message: "m")
            ])
        let page = html(report)
        #expect(page.contains("t\\u001b[2J\\u202ex"))
        #expect(page.contains("a\\u0000b"))
        #expect(!page.contains("\u{1B}") && !page.contains("\u{202E}") && !page.contains("\u{0}"))
    }

    @Test func theExcerptMarksTheDriftedMember() throws {
        let findings = try validate(
            #"[{"firstName": "A", "lastName": "B", "vetId": 1}, {"firstName": "<i>C</i>", "lastName": "D", "vetId": "2"}]"#
        )
        let typeChanged = try #require(findings.first { $0.id == .propertyTypeChanged })
        let excerpt = try #require(typeChanged.excerpt)
        #expect(excerpt.location == "$[1]")
        #expect(excerpt.text == "{\n  \"firstName\": \"<i>C</i>\",\n  \"lastName\": \"D\",\n  \"vetId\": \"2\"\n}")
        #expect(excerpt.parts.marked == #""vetId": "2""#)
        let page = html(VerificationReport(target: "t", contract: "c", operations: ["GET /pets"], findings: findings))
        #expect(
            page.contains(
                "<figcaption>response body at <code>$[1]</code></figcaption><pre><code>{\n"
                    + "  &quot;firstName&quot;: &quot;&lt;i&gt;C&lt;/i&gt;&quot;,\n  &quot;lastName&quot;: &quot;D&quot;,\n"
                    + "  <mark>&quot;vetId&quot;: &quot;2&quot;</mark>\n}</code></pre></figure>"))
        // The decode failure at the same place carries the same excerpt.
        #expect(findings.first { $0.id == .decodeFailed }?.excerpt == excerpt)
    }

    @Test func aRenamedKeyMarksTheNewKeyAndAMissingOneMarksNothing() throws {
        let renamed = try #require(
            try validate(#"[{"firstName": "A", "lastName": "B", "practitionerId": 1}]"#).first?.excerpt)
        #expect(renamed.parts.marked == #""practitionerId": 1"#)
        let missing = try #require(try validate(#"[{"lastName": "B", "vetId": 1}]"#).first)
        #expect(missing.id == .requiredPropertyMissing)
        #expect(missing.excerpt?.highlight == nil)
        #expect(missing.excerpt?.text == "{\n  \"lastName\": \"B\",\n  \"vetId\": 1\n}")
        let page = html(VerificationReport(target: "t", contract: "c", findings: [missing]))
        #expect(page.contains("response body at <code>$[0]</code> (nothing at <code>$[0].firstName</code>)"))
    }

    @Test func aBodyThatIsNotJSONShowsTheTextWhereParsingStopped() throws {
        let notJSON = try #require(try validate(#"[{"firstName": "A", "vetId": 1} oops]"#).first)
        #expect(notJSON.id == .bodyNotJSON)
        let excerpt = try #require(notJSON.excerpt)
        #expect(excerpt.location == "bytes 0-37 of 37")
        #expect(excerpt.parts.before == #"[{"firstName": "A", "vetId": 1} "#)
        #expect(excerpt.parts.marked == "o")
        let truncated = try #require(try validate(#"[{"firstName": "A", "vetId": 1"#).first?.excerpt)
        #expect(truncated.highlight?.isEmpty == true)
        #expect(
            html(VerificationReport(target: "t", contract: "c", findings: try validate(#"[{"a": 1"#))).contains(
                "<mark class=\"end\" title=\"here\"></mark>"))
    }

    /// A 3 MB body gives an excerpt of a few hundred bytes: a window of members around the
    /// drifted one, long values shortened, large containers summarised.
    @Test func theExcerptIsBoundedWhateverTheBodySize() throws {
        let pet = #"{"firstName": "A", "lastName": "B", "vetId": 1}"#
        var items = [String](repeating: pet, count: 60_000)
        let long = String(repeating: "x", count: 5_000)
        items[30_000] =
            #"{"firstName": "\#(long)", "lastName": "B", "tags": [\#(Array(repeating: "1", count: 500).joined(separator: ","))], "vetId": true}"#
        let body = "[" + items.joined(separator: ",") + "]"
        #expect(body.utf8.count > 2_800_000)
        let findings = try validate(body)
        let excerpt = try #require(findings.first { $0.id == .propertyTypeChanged }?.excerpt)
        #expect(excerpt.location == "$[30000]")
        #expect(excerpt.text.utf8.count < 400, "\(excerpt.text)")
        #expect(excerpt.text.contains(#""firstName": "xxxxx"#) && excerpt.text.contains("xx…,"))
        #expect(excerpt.text.contains(#""tags": [… 500 items]"#))
        #expect(excerpt.parts.marked == #""vetId": true"#)
        // A root value in the wrong place: the array itself, a window of its first items.
        let wrapped = try #require(try validate(#"{"items": [1, 2]}"#).first?.excerpt)
        #expect(wrapped.location == "$" && wrapped.parts.marked == wrapped.text)
        let window = try #require(
            try validate("[" + (0..<40).map { $0 == 20 ? "7" : pet }.joined(separator: ",") + "]").first?.excerpt)
        #expect(window.text.hasPrefix("[\n  … 15 items before\n"))
        #expect(window.text.hasSuffix("\n  … 14 more items\n]"))
        #expect(window.parts.marked == "7")
    }

    @Test func excerptsAreBoundedPerOperation() throws {
        let big = BodyExcerpt(location: "$", text: String(repeating: "y", count: 1_500), highlight: 0..<1)
        var collector = FindingCollector()
        collector.add(
            (0..<10).map { position in
                Finding(
                    id: .propertyUnexpected, operation: "GET /pets", path: "$.k\(position)", expected: "x",
                    actual: "y", message: "m", excerpt: big)
            })
        collector.add([
            Finding(
                id: .propertyUnexpected, operation: "GET /vets", expected: "x", actual: "y", message: "m", excerpt: big)
        ])
        let kept = collector.findings.filter { $0.operation == "GET /pets" }.compactMap(\.excerpt)
        #expect(kept.count == FindingCollector.excerptBudgetPerOperation / 1_500)
        #expect(collector.findings.last?.excerpt == big, "each operation has its own budget")
        // The other formats leave the excerpt out: their snapshots hold.
        let report = VerificationReport(target: "t", contract: "c", findings: collector.findings)
        for format in [ReportFormat.text, .json, .junit, .github, .sarif] {
            #expect(!ReportRenderer().render(report, as: format).contains("yyyy"))
        }
    }

    @Test func anEmptyReportSaysThereIsNothing() {
        let page = html(VerificationReport(target: "Stubs", contract: "built-in", decodeCheck: .full))
        let clean = html(VerificationReport(target: "Stubs", contract: "built-in", operations: ["GET /pets"]))
        #expect(
            clean.contains("<section class=\"clean\">\n<h2>No findings</h2>\n<ul>\n<li><code>GET /pets</code></li>"))
        #expect(page.contains("<p class=\"verdict passed\">Passed: nothing breaking</p>"))
        #expect(page.contains("<p class=\"empty\">No findings and nothing that could not be verified.</p>"))
        #expect(page.contains("<output id=\"shown\">0 of 0 shown</output>"))
        #expect(page.contains("<dt>Operations</dt><dd>none</dd>"))
        #expect(page.contains("full: every body was also decoded with the app's Codable models"))
        #expect(!page.contains("<article"))
    }

    @Test func aDiffReportHasNoBodiesAndSaysSo() throws {
        let (contract, _) = try PetAPIProvider.make()
        let old = contract
        var new = contract
        new.operations.removeAll { $0.name == "GET /vets/{id}" }
        let report = ContractDiff().report(old: old, new: new, oldName: "old.json", newName: "new.json")
        #expect(report.findings.contains { $0.id == .operationRemoved })
        let page = html(report)
        #expect(page.contains("<dt>Target</dt><dd><code>old.json -&gt; new.json</code></dd>"))
        #expect(page.contains("not applicable (a contract diff decodes no bodies)"))
        #expect(page.contains("<code class=\"path\">$</code> <span class=\"message\">"))
        #expect(page.contains("operation-removed"))
        #expect(!page.contains("<figure"))
    }

    @Test func skippedOperationsAreListedEscaped() {
        var report = VerificationReport(target: "t", contract: "c")
        report.skipped = [SkippedOperation(operation: "GET /repos/{owner}", reason: "no value for {owner} <b>")]
        let html = ReportRenderer().render(report, as: .html)
        #expect(html.contains("<h2>Skipped</h2>"))
        #expect(html.contains("GET /repos/{owner}: skipped: no value for {owner} &lt;b&gt;"))
    }

    /// One escaper for HTML and JUnit's XML: nothing dropped, nothing XML 1.0 forbids written.
    @Test func markupEscapingKeepsEveryCharacterVisible() {
        #expect(XML.escape("a\u{1}b<'&\n") == "a\\u0001b&lt;&#39;&amp;\n")
        #expect(HTML.escape("x\ny") == "x\\u000ay")
        #expect(HTML.escape("x\ny", keepingLineBreaks: true) == "x\ny")
        #expect(XML.escape("\u{FFFE}") == "\\ufffe")
    }
}
