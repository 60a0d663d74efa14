import HTTPCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An error body a server sends with a failing status, parsed into something readable.
///
/// Each ``Endpoint`` names its type (``Endpoint/ErrorBody``); ``APIErrorMessage`` — the
/// `{"code": 42, "message": "..."}` shape — is the default.
public protocol APIErrorBody: Sendable, CustomStringConvertible {
    /// Parses the error body of a response, or returns nil when it is not this shape.
    static func parse(_ response: HTTPClientResponse) -> Self?
}

/// The common `{"code": Int, "message": String}` error body.
public struct APIErrorMessage: APIErrorBody, Decodable, Hashable {
    /// The server's error code, if it sent one.
    public let code: Int?
    /// The server's message, if it sent one.
    public let message: String?

    /// Creates an error message.
    public init(code: Int?, message: String?) {
        self.code = code
        self.message = message
    }

    private enum CodingKeys: String, CodingKey {
        case code, message
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        // Some servers send the code as a string ("404"); take it when it is a number.
        if let number = try? container.decodeIfPresent(Int.self, forKey: .code) {
            code = number
        } else {
            code = (try? container.decodeIfPresent(String.self, forKey: .code)).flatMap { $0.flatMap { Int($0) } }
        }
        message = try? container.decodeIfPresent(String.self, forKey: .message)
    }

    public static func parse(_ response: HTTPClientResponse) -> APIErrorMessage? {
        guard !response.body.isEmpty,
            let parsed = try? JSONDecoder().decode(APIErrorMessage.self, from: Data(response.body)),
            parsed.code != nil || parsed.message != nil
        else { return nil }
        return parsed
    }

    public var description: String {
        switch (code, message) {
        case (let code?, let message?): "'\(message)' (code \(code))"
        case (nil, let message?): "'\(message)'"
        case (let code?, nil): "code \(code)"
        case (nil, nil): "no details"
        }
    }
}
