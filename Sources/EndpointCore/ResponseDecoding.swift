import HTTPCore
import JSONKit

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How an ``Endpoint`` turns a successful response into its `Response`: JSON into a
/// `Decodable` object or array, text into a `String`, or a custom decoder.
///
/// ```swift
/// let pets: ResponseDecoding<[PetJsonModel]> = .json()
/// let banner: ResponseDecoding<String> = .string
/// let count = ResponseDecoding<Int>.custom { response in response.body.count }
/// ```
public struct ResponseDecoding<Response: Sendable>: Sendable {
    /// Whether the response must be labelled JSON (`application/json` or `+json`).
    public let expectsJSON: Bool
    private let body: @Sendable (HTTPClientResponse, [String]) throws(EndpointError) -> Response

    private init(
        expectsJSON: Bool, _ body: @escaping @Sendable (HTTPClientResponse, [String]) throws(EndpointError) -> Response
    ) {
        self.expectsJSON = expectsJSON
        self.body = body
    }

    /// Decodes the body as JSON into `Response` (an object, an array, or any `Decodable`),
    /// after unwrapping the envelope named by the endpoint's ``Endpoint/keyPath``.
    public static func json(_ type: Response.Type = Response.self) -> ResponseDecoding where Response: Decodable {
        ResponseDecoding(expectsJSON: true) { response, keyPath throws(EndpointError) in
            try decodeJSON(Response.self, from: response, keyPath: keyPath)
        }
    }

    /// Decodes the body as JSON with the app's own decoder configuration (key, date and data
    /// strategies): the same `makeDecoder` the app's contract is generated with.
    public static func json(
        _ type: Response.Type = Response.self, decoder makeDecoder: @escaping @Sendable () -> JSONDecoder
    ) -> ResponseDecoding where Response: Decodable {
        ResponseDecoding(expectsJSON: true) { response, keyPath throws(EndpointError) in
            try decodeJSON(Response.self, from: response, keyPath: keyPath, decoder: makeDecoder())
        }
    }

    /// Decodes with your own function; `expectsJSON` turns on the media-type check. The
    /// endpoint's key path does not apply.
    public static func custom(
        expectsJSON: Bool = false, _ decode: @escaping @Sendable (HTTPClientResponse) throws(EndpointError) -> Response
    ) -> ResponseDecoding {
        ResponseDecoding(expectsJSON: expectsJSON) { response, _ throws(EndpointError) in try decode(response) }
    }

    /// Decodes `response`, unwrapping `keyPath` (dot-separated keys) for JSON.
    public func decode(_ response: HTTPClientResponse, keyPath: String?) throws(EndpointError) -> Response {
        let keys = keyPath.map { $0.split(separator: ".").map(String.init) } ?? []
        return try body(response, keys)
    }
}

extension ResponseDecoding {
    /// Decodes a JSON array one element at a time: an element that does not decode as
    /// `Element` is a failure in its place (its index leading the coding path, `[2].vetId`),
    /// and the others are kept. A body that is not an array, or not JSON, fails as a whole,
    /// as ``json(_:)`` does; so does any body when the endpoint has a ``Endpoint/keyPath``
    /// (the elements are then decoded together). The array is decoded whole first, so a body
    /// that decodes costs what ``json(_:)`` costs; only a failing one is decoded by element.
    ///
    /// ```swift
    /// let pets: ResponseDecoding<[Result<PetJsonModel, EndpointError>]> = .jsonElements(PetJsonModel.self)
    /// ```
    public static func jsonElements<Element: Decodable & Sendable>(
        _ type: Element.Type
    ) -> ResponseDecoding where Response == [Result<Element, EndpointError>] {
        ResponseDecoding(expectsJSON: true) { response, keyPath throws(EndpointError) in
            // The whole array in one call first: the common case costs what `json()` does.
            let whole = Result { () throws(EndpointError) in
                try decodeJSON([Element].self, from: response, keyPath: keyPath)
            }
            guard case .failure(.decoding) = whole, keyPath.isEmpty,
                let ranges = JSONArraySplitter.elementRanges(in: response.body)
            else {
                return try whole.get().map { .success($0) }
            }
            var elements: [Result<Element, EndpointError>] = []
            elements.reserveCapacity(ranges.count)
            let decoder = JSONDecoder()
            for (index, range) in ranges.enumerated() {
                let element = Array(response.body[range])
                let decoded = Result { () throws(EndpointError) in
                    try decodeJSON(Element.self, from: element, url: response.url, decoder: decoder)
                }
                switch decoded {
                case .success: elements.append(decoded)
                case .failure(.decoding(let failure)):
                    elements.append(.failure(.decoding(failure.inArray(of: Element.self, at: index))))
                case .failure:
                    // Not JSON after all (the splitter does not validate): the body's own error.
                    return try whole.get().map { .success($0) }
                }
            }
            return elements
        }
    }
}

extension DecodingFailure {
    /// The failure of one element of an array of `Element`, as decoding the whole array
    /// reports it: type `[Element]`, the index leading the path.
    func inArray<Element>(of type: Element.Type, at index: Int) -> DecodingFailure {
        DecodingFailure(
            url: url, type: DecodingDiagnostics.name(of: [Element].self), path: path(after: "[\(index)]"),
            problem: problem, excerpt: excerpt)
    }
}

extension ResponseDecoding where Response == String {
    /// The body as UTF-8 text, whatever its media type.
    public static var string: ResponseDecoding<String> {
        .custom { response throws(EndpointError) in
            guard let text = String(validating: response.body, as: UTF8.self) else {
                throw .invalidRequest("the body of \(response.url) is not UTF-8 text")
            }
            return text
        }
    }
}

private func decodeJSON<Value: Decodable>(
    _ type: Value.Type, from response: HTTPClientResponse, keyPath: [String], decoder: JSONDecoder = JSONDecoder()
)
    throws(EndpointError) -> Value
{
    guard !response.body.isEmpty else {
        throw .notJSON(mediaType: response.mediaType, reason: "an empty body", excerpt: "", url: response.url)
    }
    return try decodeJSON(Value.self, from: response.body, url: response.url, keyPath: keyPath, decoder: decoder)
}

/// Decodes `Value` from JSON bytes (inside the envelope `keyPath` names) with `decoder` (one
/// can serve many calls), every failure an ``EndpointError`` that says where.
private func decodeJSON<Value: Decodable>(
    _ type: Value.Type, from body: [UInt8], url: String, keyPath: [String] = [],
    decoder: JSONDecoder = JSONDecoder()
)
    throws(EndpointError) -> Value
{
    if let key = CodingUserInfoKey.envelopeKeyPath { decoder.userInfo[key] = keyPath }
    do {
        if keyPath.isEmpty {
            return try decoder.decode(Value.self, from: Data(body))
        }
        return try decoder.decode(Envelope<Value>.self, from: Data(body)).value
    } catch let error as DecodingError {
        // Foundation on Linux gives a number that does not fit (`1.5` for an `Int`) no path;
        // the envelope with the same key path decodes `Value` as either branch above did.
        let located = JSONValueDecoder(userInfo: decoder.userInfo)
            .locate(error, decoding: Envelope<Value>.self, from: body)
        throw DecodingDiagnostics.error(for: located, body: body, type: Value.self, url: url)
    } catch {
        throw .decoding(
            DecodingFailure(
                url: url, type: DecodingDiagnostics.name(of: Value.self), path: "", problem: "\(error)",
                excerpt: DecodingDiagnostics.excerpt(ofBody: body)))
    }
}

extension CodingUserInfoKey {
    // The initialiser is failable in signature only; it accepts every string.
    fileprivate static let envelopeKeyPath = CodingUserInfoKey(rawValue: "petkit.envelopeKeyPath")
}

/// Decodes `Value` from inside nested objects (`{"data": {"items": [...]}}` for `data.items`),
/// keeping the coding path, so errors read `data.items[2].vetId`.
private struct Envelope<Value: Decodable>: Decodable {
    let value: Value

    init(from decoder: any Decoder) throws {
        let keys = CodingUserInfoKey.envelopeKeyPath.flatMap { decoder.userInfo[$0] as? [String] } ?? []
        guard let last = keys.last else {
            value = try decoder.singleValueContainer().decode(Value.self)
            return
        }
        var container = try decoder.container(keyedBy: EnvelopeKey.self)
        for key in keys.dropLast() {
            container = try container.nestedContainer(keyedBy: EnvelopeKey.self, forKey: EnvelopeKey(key))
        }
        value = try container.decode(Value.self, forKey: EnvelopeKey(last))
    }
}

private struct EnvelopeKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }

    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { return nil }
}
