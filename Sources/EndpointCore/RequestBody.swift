#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The body of an ``Endpoint``'s request and how it is encoded.
public enum RequestBody: Sendable {
    /// A value encoded as JSON (`application/json`).
    case json(any Encodable & Sendable)
    /// Name/value pairs as `application/x-www-form-urlencoded`.
    case form([QueryItem])
    /// Fields and files as `multipart/form-data`; the boundary is random unless given.
    case multipart([MultipartFormPart], boundary: String? = nil)
    /// Bytes sent as they are, with their media type.
    case raw([UInt8], contentType: String)

    /// The encoded bytes and the `Content-Type` that goes with them.
    public func encoded() throws(EndpointError) -> (bytes: [UInt8], contentType: String) {
        switch self {
        case .json(let value):
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            do {
                return (Array(try encoder.encode(value)), "application/json")
            } catch let error as EncodingError {
                if case .invalidValue(let value, let context) = error {
                    let path = DecodingDiagnostics.render(context.codingPath)
                    throw .invalidRequest(
                        "cannot encode \(type(of: value)) at '\(path)' as JSON: \(context.debugDescription)")
                }
                throw .invalidRequest("cannot encode the body as JSON: \(error)")
            } catch {
                throw .invalidRequest("cannot encode the body as JSON: \(error)")
            }
        case .form(let items):
            return (Array(QueryItem.formEncoded(items).utf8), "application/x-www-form-urlencoded")
        case .multipart(let parts, let boundary):
            let boundary = boundary ?? MultipartFormPart.boundary(for: parts)
            return (MultipartFormPart.encode(parts, boundary: boundary), "multipart/form-data; boundary=\(boundary)")
        case .raw(let bytes, let contentType):
            return (bytes, contentType)
        }
    }
}
