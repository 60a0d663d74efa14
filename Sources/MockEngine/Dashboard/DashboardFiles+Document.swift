// The dashboard's part for an OpenAPI document: its operations beside the mappings, and the
// violations of the requests it answered. Server data is shown only through textContent.
// swift-format-ignore-file

extension DashboardFiles {
    /// The script the page loads: the dashboard's, then the document's part.
    static let wholeScript = script + documentScript

    static let documentScript = #"""

        // The number of violations of a request the document answered, "" for any other.
        function violationCount(event) {
          const document = event.petmockDocument;
          return document && document.violations.length > 0 ? document.violations.length : "";
        }

        // Marked like an unmatched request: no stub and no document operation answered, or the
        // document refused the request.
        function journalRowClass(event) {
          const document = event.petmockDocument;
          if (document) return document.violations.length > 0 ? "unmatched" : "";
          return event.wasMatched ? "" : "unmatched";
        }

        async function refreshOperations() {
          const listing = await api("GET", "/petmock/operations");
          const section = $("operations");
          section.hidden = listing.operations.length === 0;
          const rows = $("operation-rows");
          rows.replaceChildren();
          for (const operation of listing.operations) {
            const row = el("tr");
            row.dataset.operation = operation.name;
            const name = operation.operationId || operation.name;
            for (const cell of [operation.method, operation.path, name, operation.statuses.join(", ")]) {
              row.append(el("td", cell));
            }
            if (operation.summary) row.title = operation.summary;
            rows.append(row);
          }
        }

        function showDocumentAnswer(event, detail) {
          const document = event.petmockDocument;
          detail.append(el("p", "Answered by the document's operation " + (document.operation || "(none)") + " with " +
            event.response.status + "."));
          if (document.violations.length === 0) return;
          detail.append(tableOf("violations", ["where", "expected", "found", "message"], document.violations.map(
            (violation) => [[violation.location, violation.expected, violation.found, violation.message], "error"])));
        }
        """#
}
