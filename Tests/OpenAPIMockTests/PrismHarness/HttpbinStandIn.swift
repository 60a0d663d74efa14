import Foundation
import HTTPCore
import HTTPHandlerKit

/// What the proxy cases of Prism's harness ask of http://httpbin.org, answered locally:
/// `/status/N` (status N, no body), `/json` (httpbin's slideshow) and `/html` (httpbin's
/// Moby-Dick page, read from the case that expects it, `proxy/proxy.passthrough.txt`).
struct HttpbinStandIn: HTTPHandler {
    static let slideshow = #"""
        {"slideshow":{"author":"Yours Truly","date":"date of publication","slides":[{"title":"Wake up to WonderWidgets!","type":"all"},{"items":["Why <em>WonderWidgets</em> are great","Who <em>buys</em> WonderWidgets"],"title":"Overview","type":"all"}],"title":"Sample Slide Show"}}
        """#

    static let page: String = {
        let file = PrismHarnessTests.folder.appendingPathComponent("proxy/proxy.passthrough.txt")
        guard let text = try? String(contentsOf: file, encoding: .utf8),
            let expect = text.range(of: "====expect====\n")
        else { return "" }
        return PrismExpectation.parse(String(text[expect.upperBound...])).body + "\n"
    }()

    func reply(to request: HTTPServerRequest) -> HTTPReply {
        let path = String(request.path)
        let (status, type, body): (Int, String, String)
        if path.hasPrefix("/status/"), let code = Int(path.dropFirst("/status/".count)), (200...599).contains(code) {
            (status, type, body) = (code, "text/html; charset=utf-8", "")
        } else if path == "/json" {
            (status, type, body) = (200, "application/json", Self.slideshow + "\n")
        } else if path == "/html" {
            (status, type, body) = (200, "text/html; charset=utf-8", Self.page)
        } else {
            (status, type, body) = (404, "text/html", "<h1>Not Found</h1>")
        }
        return .response(
            HTTPResponse(status: HTTPStatus(code: status), headers: ["Content-Type": type], body: Array(body.utf8)))
    }
}
