import JSONKit
import TestSupport
import Testing

@testable import MockEngine
@testable import StubServerKit

/// The XML matchers through the admin API and a served request: a stub posted with
/// `equalToXml` or `matchesXPath` answers, reads back as posted, and a malformed one is a 422
/// naming the field.
@Suite struct XMLMatcherAdminTests {
    @Test func postedXMLStubsAnswerAndMalformedOnesAreRefused() throws {
        let server = try startServer()
        defer { server.stop() }
        let port = server.port
        let mapping = #"""
            {"request": {"method": "POST", "url": "/soap", "bodyPatterns": [
               {"matchesXPath": {"expression": "//s:Body/*[1]", "equalToXml": "<add><a>1</a><b>2</b></add>"},
                "xPathNamespaces": {"s": "http://schemas.xmlsoap.org/soap/envelope/"}}]},
             "response": {"status": 200, "body": "<sum>3</sum>"}}
            """#
        let created = try fetch(port, "POST", "/__admin/mappings", body: mapping)
        #expect(created.status == 201, "\(created.text)")
        let pattern = created.json["request"]?["bodyPatterns"]?[0]
        #expect(pattern?["xPathNamespaces"]?["s"] == "http://schemas.xmlsoap.org/soap/envelope/")
        #expect(pattern?["matchesXPath"]?["expression"] == "//s:Body/*[1]")
        let envelope = """
            <soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">
              <soap:Body><add><b>2</b><a>1</a></add></soap:Body>
            </soap:Envelope>
            """
        let answer = try fetch(port, "POST", "/soap", body: envelope)
        #expect(answer.status == 200 && answer.text == "<sum>3</sum>")
        let wrong = try fetch(
            port, "POST", "/soap", body: envelope.replacingOccurrences(of: "<b>2</b>", with: "<b>5</b>"))
        #expect(wrong.status == 404)
        #expect(wrong.text.contains("'//s:Body/*[1]' selected '<add><b>5</b><a>1</a></add>'"), "\(wrong.text)")

        let bad =
            #"{"request": {"method": "POST", "url": "/x", "bodyPatterns": [{"equalToXml": "<a>"}]}, "response": {}}"#
        let refused = try fetch(port, "POST", "/__admin/mappings", body: bad)
        #expect(refused.status == 422, "\(refused.text)")
        #expect(refused.text.contains("bodyPatterns[0].equalToXml"), "\(refused.text)")
    }
}

extension String {
    fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
