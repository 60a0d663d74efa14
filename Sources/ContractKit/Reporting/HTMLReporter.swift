import APISchema
import Foundation
import HTTPCore

/// One self-contained HTML page (inline CSS and script, nothing fetched, works from `file://`):
/// the verdict, counts by level and of the operations checked and skipped, target, contract,
/// operations and decode-check coverage; a level filter; then per operation what could not be
/// verified and each finding with its path,
/// Swift property, expected and found, count, hint, URL and status, and the response body
/// around the path with the drifted member marked (``Finding/excerpt``).
///
/// Every string from the report is HTML-escaped (`&`, `<`, `>`, `"`, `'`), and characters
/// that could act or reorder what is read (controls, bidirectional overrides) are shown as
/// `\u001b`-style escapes. The page's Content-Security-Policy lets only its own script run
/// (named by its SHA-256) and fetches nothing, so even a value that slipped through could not
/// act. The page is a pure function of the report, like the other formats.
struct HTMLReporter {
    /// Whether warnings fail (`--strict`), for the verdict.
    let strict: Bool

    func render(_ report: VerificationReport) -> String {
        let summary = report.summary
        var names = report.operations
        for name in report.findings.map(\.operation) + report.errors.map(\.operation) where !names.contains(name) {
            names.append(name)
        }
        var sections: [String] = []
        var clean: [String] = []
        var number = 0
        for (position, name) in names.enumerated() {
            let mine = report.findings.filter { $0.operation == name }
            let findings = FindingLevel.allCases.flatMap { level in mine.filter { $0.level == level } }
            let errors = report.errors.filter { $0.operation == name }
            guard !findings.isEmpty || !errors.isEmpty else {
                clean.append("<li><code>\(HTML.escape(name))</code></li>")
                continue
            }
            var items = errors.map(errorHTML)
            for finding in findings {
                number += 1
                items.append(findingHTML(finding, number: number))
            }
            var badges = FindingLevel.allCases.compactMap { level -> String? in
                let count = findings.filter { $0.level == level }.count
                return count == 0 ? nil : "<span class=\"badge \(level.rawValue)\">\(count) \(level.rawValue)</span>"
            }
            if !errors.isEmpty { badges.append("<span class=\"badge error\">could not verify</span>") }
            sections.append(
                """
                <section class="operation" id="operation-\(position + 1)">
                <h2><code>\(HTML.escape(name))</code> \(badges.joined(separator: " "))</h2>
                \(items.joined(separator: "\n"))
                </section>
                """)
        }
        if sections.isEmpty {
            sections.append("<p class=\"empty\">No findings and nothing that could not be verified.</p>")
        }
        if !clean.isEmpty {
            sections.append(
                "<section class=\"clean\">\n<h2>No findings</h2>\n<ul>\n" + clean.joined(separator: "\n")
                    + "\n</ul>\n</section>")
        }
        if !report.skipped.isEmpty {
            let skipped = report.skipped.map {
                "<li>\(HTML.escape($0.operation)): skipped: \(HTML.escape($0.reason))</li>"
            }
            .joined(separator: "\n")
            sections.append("<section class=\"notes\">\n<h2>Skipped</h2>\n<ul>\n\(skipped)\n</ul>\n</section>")
        }
        if !report.notes.isEmpty {
            let notes = report.notes.map { "<li>\(HTML.escape($0))</li>" }.joined(separator: "\n")
            sections.append("<section class=\"notes\">\n<h2>Notes</h2>\n<ul>\n\(notes)\n</ul>\n</section>")
        }
        let counts =
            FindingLevel.allCases.map { level in
                let count = report.findings.filter { $0.level == level }.count
                return "<li class=\"count \(level.rawValue)\"><b>\(count)</b> \(level.rawValue)</li>"
            } + [
                "<li class=\"count error\"><b>\(summary.errors)</b> could not verify</li>",
                "<li class=\"count checked\"><b>\(summary.operations)</b> checked</li>",
                "<li class=\"count skipped\"><b>\(summary.skipped)</b> skipped</li>",
            ]
        let filters =
            FindingLevel.allCases.map { level in
                let count = report.findings.filter { $0.level == level }.count
                return "<label class=\"\(level.rawValue)\"><input type=\"checkbox\" data-level=\"\(level.rawValue)\" "
                    + "checked> \(level.rawValue) (\(count))</label>"
            } + [
                "<label class=\"error\"><input type=\"checkbox\" data-level=\"error\" checked> could not verify "
                    + "(\(summary.errors))</label>"
            ]
        let operations =
            report.operations.isEmpty
            ? "none"
            : "\(report.operations.count): "
                + report.operations.map { "<code>\(HTML.escape($0))</code>" }.joined(separator: ", ")
        var facts = [
            ("Target", "<code>\(HTML.escape(report.target))</code>"),
            ("Contract", "<code>\(HTML.escape(report.contract))</code>"),
            ("Operations", operations),
            ("Decode check", decodeCheckHTML(report.decodeCheck)),
        ]
        if report.ignored > 0 { facts.append(("Ignored", "\(report.ignored) (accepted by the ignore file)")) }
        let title =
            "petcontract: \(summary.breaking) breaking, \(summary.warning) warning\(summary.warning == 1 ? "" : "s"), "
            + "\(summary.info) info, \(summary.errors) error\(summary.errors == 1 ? "" : "s")"
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; \
            script-src '\(HTMLReporter.scriptHash)'; img-src data:; base-uri 'none'; form-action 'none'">
            <meta name="generator" content="petcontract">
            <title>\(title)</title>
            <style>
            \(HTMLReporter.style)
            </style>
            </head>
            <body>
            <header>
            <h1>petcontract report</h1>
            \(verdictHTML(report))
            <ul class="counts">
            \(counts.joined(separator: "\n"))
            </ul>
            <dl class="facts">
            \(facts.map { "<dt>\($0.0)</dt><dd>\($0.1)</dd>" }.joined(separator: "\n"))
            </dl>
            </header>
            <nav class="filter" aria-label="Filter by level">
            <span>Show:</span>
            \(filters.joined(separator: "\n"))
            <output id="shown">\(report.findings.count + report.errors.count) of \
            \(report.findings.count + report.errors.count) shown</output>
            </nav>
            <main>
            \(sections.joined(separator: "\n"))
            </main>
            <footer>\(HTML.escape(report.summaryLine))</footer>
            <script>\(HTMLReporter.script)</script>
            </body>
            </html>

            """
    }

    private func verdictHTML(_ report: VerificationReport) -> String {
        switch report.outcome(strict: strict) {
        case .passed:
            return "<p class=\"verdict passed\">Passed: nothing breaking</p>"
        case .failed:
            let why = report.summary.breaking > 0 ? "breaking drift" : "warnings (--strict)"
            return "<p class=\"verdict failed\">Failed: \(why)</p>"
        case .couldNotVerify where report.errors.isEmpty:
            let skipped = report.skipped.count
            return "<p class=\"verdict unverified\">Could not verify everything: \(skipped) operation"
                + "\(skipped == 1 ? "" : "s") skipped (--strict)</p>"
        case .couldNotVerify:
            return "<p class=\"verdict unverified\">Could not verify everything</p>"
        }
    }

    private func decodeCheckHTML(_ coverage: DecodeCheckCoverage?) -> String {
        switch coverage {
        case .full?: "full: every body was also decoded with the app's Codable models"
        case .partial(let types)?:
            "partial: schema only for "
                + types.map { "<code>\(HTML.escape($0))</code>" }.joined(separator: ", ") + " (no Codable model)"
        case .none?: "none: schema only, no Codable models"
        case nil: "not applicable (a contract diff decodes no bodies)"
        }
    }

    private func errorHTML(_ error: VerificationError) -> String {
        let url = error.url.map { " <span class=\"url\">\(link($0))</span>" } ?? ""
        return """
            <article class="item error" data-level="error">
            <h3><span class="level">could not verify</span> \(HTML.escape(error.message))\(url)</h3>
            </article>
            """
    }

    private func findingHTML(_ finding: Finding, number: Int) -> String {
        var rows = [
            ("expected", "<code>\(HTML.escape(finding.expected))</code>"),
            ("found", "<code>\(HTML.escape(finding.actual))</code>"),
        ]
        if let swift = finding.swift { rows.append(("Swift", "<code class=\"swift\">\(HTML.escape(swift))</code>")) }
        if finding.count > 1 { rows.append(("count", "\(finding.count) occurrences, the first shown")) }
        if let url = finding.url {
            rows.append(("at", link(url) + (finding.status.map { " <span class=\"status\">(\($0))</span>" } ?? "")))
        }
        if let hint = finding.hint { rows.append(("hint", HTML.escape(hint))) }
        let details = rows.map { "<dt>\($0.0)</dt><dd>\($0.1)</dd>" }.joined(separator: "\n")
        let level = finding.level.rawValue
        return """
            <article class="item finding \(level)" data-level="\(level)" id="finding-\(number)">
            <h3><span class="level">\(level)</span> <code class="path">\(HTML.escape(finding.path))</code> \
            <span class="message">\(HTML.escape(finding.message))</span> \
            <span class="id">\(HTML.escape(finding.id.rawValue))</span></h3>
            <dl>
            \(details)
            </dl>
            \(finding.excerpt.map { excerptHTML($0, path: finding.path) } ?? "")
            </article>
            """
    }

    private func excerptHTML(_ excerpt: BodyExcerpt, path: String) -> String {
        let parts = excerpt.parts
        var code = HTML.escape(parts.before, keepingLineBreaks: true)
        if excerpt.highlight != nil {
            code +=
                parts.marked.isEmpty
                ? "<mark class=\"end\" title=\"here\"></mark>"
                : "<mark>\(HTML.escape(parts.marked, keepingLineBreaks: true))</mark>"
        }
        code += HTML.escape(parts.after, keepingLineBreaks: true)
        var caption =
            excerpt.location.hasPrefix("$")
            ? "response body at <code>\(HTML.escape(excerpt.location))</code>"
            : "response body, \(HTML.escape(excerpt.location))"
        if excerpt.highlight == nil { caption += " (nothing at <code>\(HTML.escape(path))</code>)" }
        return "<figure class=\"excerpt\"><figcaption>\(caption)</figcaption><pre><code>\(code)</code></pre></figure>"
    }

    /// A link for an http(s) URL (nothing else: no `javascript:`), plain text for the rest.
    private func link(_ url: String) -> String {
        let lower = url.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else {
            return "<code>\(HTML.escape(url))</code>"
        }
        return "<a href=\"\(HTML.escape(url))\" rel=\"noreferrer\"><code>\(HTML.escape(url))</code></a>"
    }

    /// The script's hash as the policy names it: `sha256-` and the base64 of its SHA-256.
    static let scriptHash = "sha256-" + Data(SHA256.digest(Array(script.utf8))).base64EncodedString()

    static let style = """
        :root { --breaking: #c62828; --warning: #b26a00; --info: #1565c0; --error: #6a1b9a; --passed: #2e7d32;
          --fg: #1d1d1f; --muted: #5f6368; --bg: #fff; --panel: #f6f7f9; --line: #dde1e6; --mark: #ffe082; }
        @media (prefers-color-scheme: dark) {
          :root { --fg: #e8eaed; --muted: #a0a4a8; --bg: #16181b; --panel: #202327; --line: #33373c;
            --mark: #7a5c00; --breaking: #ef5350; --warning: #ffb74d; --info: #64b5f6; --error: #ce93d8; }
        }
        * { box-sizing: border-box; }
        body { margin: 0 auto; max-width: 72rem; padding: 1rem 1.5rem 3rem; color: var(--fg);
          background: var(--bg); font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; }
        code, pre { font-family: ui-monospace, "SF Mono", Menlo, Consolas, monospace; font-size: 0.92em; }
        pre code { font-size: 1em; }
        [hidden] { display: none !important; }
        h1 { font-size: 1.5rem; margin: 0.5rem 0; }
        h2 { font-size: 1.15rem; margin: 1.5rem 0 0.5rem; padding-bottom: 0.25rem; border-bottom: 1px solid var(--line); }
        h3 { font-size: 1rem; font-weight: 500; margin: 0 0 0.4rem; overflow-wrap: anywhere; }
        .verdict { font-weight: 600; margin: 0.25rem 0 0.75rem; }
        .verdict.passed { color: var(--passed); } .verdict.failed { color: var(--breaking); }
        .verdict.unverified { color: var(--error); }
        .counts { display: flex; flex-wrap: wrap; gap: 0.5rem; list-style: none; padding: 0; margin: 0 0 0.75rem; }
        .count { padding: 0.35rem 0.8rem; border-radius: 0.4rem; background: var(--panel);
          border-left: 4px solid currentColor; }
        .count b { font-size: 1.2rem; margin-right: 0.2rem; }
        .breaking { color: var(--breaking); } .warning { color: var(--warning); } .info { color: var(--info); }
        .error { color: var(--error); }
        .facts { display: grid; grid-template-columns: max-content 1fr; gap: 0.2rem 1rem; margin: 0; }
        .facts dt, .finding dt { color: var(--muted); }
        .facts dd, .finding dd { margin: 0; overflow-wrap: anywhere; }
        .filter { position: sticky; top: 0; display: flex; flex-wrap: wrap; gap: 0.4rem 1rem; align-items: center;
          padding: 0.6rem 0; background: var(--bg); border-bottom: 1px solid var(--line); margin-top: 1rem; }
        .filter label { cursor: pointer; font-weight: 500; }
        .filter output { margin-left: auto; color: var(--muted); }
        .badge { font-size: 0.75rem; font-weight: 600; padding: 0.1rem 0.45rem; border-radius: 1rem;
          border: 1px solid currentColor; vertical-align: middle; }
        .item { margin: 0.6rem 0; padding: 0.7rem 0.9rem; background: var(--panel); border-radius: 0.4rem;
          border-left: 4px solid currentColor; }
        .item > * { color: var(--fg); }
        .item.breaking { border-left-color: var(--breaking); } .item.warning { border-left-color: var(--warning); }
        .item.info { border-left-color: var(--info); } .item.error { border-left-color: var(--error); }
        .level { font-size: 0.75rem; font-weight: 700; text-transform: uppercase; letter-spacing: 0.03em;
          margin-right: 0.3rem; }
        .item.breaking .level { color: var(--breaking); } .item.warning .level { color: var(--warning); }
        .item.info .level { color: var(--info); } .item.error .level { color: var(--error); }
        .path { font-weight: 600; }
        .id { color: var(--muted); font-size: 0.8rem; margin-left: 0.3rem; }
        .finding dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.15rem 1rem; margin: 0.3rem 0; }
        .swift { font-weight: 600; }
        a { color: inherit; }
        figure.excerpt { margin: 0.5rem 0 0; }
        figcaption { color: var(--muted); font-size: 0.85rem; }
        pre { margin: 0.2rem 0 0; padding: 0.5rem 0.7rem; background: var(--bg); border: 1px solid var(--line);
          border-radius: 0.3rem; overflow-x: auto; white-space: pre; line-height: 1.4; }
        mark { background: var(--mark); color: inherit; border-radius: 0.2rem; outline: 2px solid var(--mark); }
        mark.end::after { content: "\\25C2  end of body"; font-style: italic; }
        .clean ul, .notes ul { margin: 0.3rem 0; }
        .empty { color: var(--passed); }
        footer { margin-top: 2rem; color: var(--muted); font-size: 0.85rem; overflow-wrap: anywhere; }
        @media print { .filter { display: none; } .item { break-inside: avoid; } }
        """

    /// The level filter: hides the findings of unticked levels, and operations left empty.
    static let script = """
        (function () {
          "use strict";
          var boxes = Array.prototype.slice.call(document.querySelectorAll(".filter input[data-level]"));
          function update() {
            var shown = {};
            boxes.forEach(function (box) { shown[box.getAttribute("data-level")] = box.checked; });
            var items = document.querySelectorAll("main .item");
            var visible = 0;
            Array.prototype.forEach.call(items, function (item) {
              var show = shown[item.getAttribute("data-level")] !== false;
              item.hidden = !show;
              if (show) { visible += 1; }
            });
            Array.prototype.forEach.call(document.querySelectorAll("main section.operation"), function (section) {
              section.hidden = section.querySelector(".item:not([hidden])") === null;
            });
            document.getElementById("shown").textContent = visible + " of " + items.length + " shown";
          }
          boxes.forEach(function (box) { box.addEventListener("change", update); });
          update();
        })();
        """
}

/// HTML text and attribute escaping: ``Markup/escape(_:keepingLineBreaks:)``.
enum HTML {
    static func escape(_ text: String, keepingLineBreaks: Bool = false) -> String {
        Markup.escape(text, keepingLineBreaks: keepingLineBreaks)
    }
}
