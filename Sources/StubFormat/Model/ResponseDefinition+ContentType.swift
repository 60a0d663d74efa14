extension ResponseDefinition {
    /// The `Content-Type` petmock serves this response with: the mapping's own field, else the
    /// type its body implies (``impliedContentType(of:)``). petmock's compiler and
    /// `petcontract verify --stub` both read it here, so they judge the same answer.
    public var servedContentType: String? {
        headers["Content-Type"] ?? Self.impliedContentType(of: body)
    }

    /// The content type a body implies when the mapping names none: JSON for `jsonBody`, and
    /// for a body file the type its extension names; nil for anything else.
    public static func impliedContentType(of body: ResponseBody) -> String? {
        switch body {
        case .json: return "application/json"
        case .file(let name):
            let lower = name.lowercased()
            guard let dot = lower.lastIndex(of: ".") else { return nil }
            switch lower[lower.index(after: dot)...] {
            case "json": return "application/json"
            case "xml": return "application/xml"
            case "html", "htm": return "text/html; charset=utf-8"
            case "txt": return "text/plain; charset=utf-8"
            case "css": return "text/css"
            case "js": return "application/javascript"
            case "png": return "image/png"
            case "jpg", "jpeg": return "image/jpeg"
            case "gif": return "image/gif"
            case "svg": return "image/svg+xml"
            case "ico": return "image/x-icon"
            case "pdf": return "application/pdf"
            default: return nil
            }
        default: return nil
        }
    }
}
