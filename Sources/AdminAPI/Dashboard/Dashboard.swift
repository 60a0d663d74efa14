import HTTPCore
import HTTPHandlerKit
import MockEngine

/// The dashboard at `/__admin/ui`: one page, its style sheet and its script (the files beside
/// this one, `index.html`, `app.css`, `app.js` and `icon.svg`, embedded in the binary at build
/// time), served from the binary. The page holds no data; its script reads and changes everything through the admin
/// API, with the token (if petmock has one) entered once and kept in `sessionStorage`.
///
/// The Content-Security-Policy allows only these files and calls to this origin: nothing is
/// fetched from elsewhere, and the script shows every string from the server as text.
enum Dashboard {
    static let path = "/__admin/ui"

    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; "
        + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    /// Whether a path is one of the dashboard's files.
    static func serves(_ path: Substring) -> Bool {
        file(for: path) != nil
    }

    /// The dashboard file at a path, if it is one.
    static func response(for path: Substring) -> HTTPResponse? {
        guard let (type, bytes) = file(for: path) else { return nil }
        return HTTPResponse(
            status: .ok,
            headers: [
                "Content-Type": type, "Content-Security-Policy": contentSecurityPolicy,
                "X-Content-Type-Options": "nosniff", "Cache-Control": "no-store", "Referrer-Policy": "no-referrer",
                "X-Frame-Options": "DENY",
            ],
            body: bytes)
    }

    private static func file(for path: Substring) -> (type: String, bytes: [UInt8])? {
        switch path {
        case "/__admin/ui", "/__admin/ui/": ("text/html; charset=utf-8", PackageResources.index_html)
        case "/__admin/ui/app.js": ("text/javascript; charset=utf-8", PackageResources.app_js)
        case "/__admin/ui/app.css": ("text/css; charset=utf-8", PackageResources.app_css)
        case "/__admin/ui/icon.svg": ("image/svg+xml", PackageResources.icon_svg)
        default: nil
        }
    }
}
