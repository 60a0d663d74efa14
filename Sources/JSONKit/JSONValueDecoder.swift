/// Decodes any `Decodable` from a parsed ``JSONValue``, with the full coding path in every
/// error and exact number checks: an `Int` refuses `1.5` and `99999999999999999999` with
/// `typeMismatch` at the value's path, as an `Int8` refuses `300` and a `UInt` refuses `-1`.
///
/// ```swift
/// let value = try JSONValue(parsing: #"[{"firstName": "Rex", "vetId": 1.5}]"#)
/// try JSONValueDecoder().decode([PetJsonModel].self, from: value)
/// // typeMismatch(Int) at [0].vetId: "number 1.5 does not fit in Int"
/// ```
///
/// Numbers are accepted as Foundation's `JSONDecoder` accepts them: an integer type takes
/// any number whose value is a whole number in range (`1.0` and `1e2` too), `Double` and
/// `Float` any number that stays finite. Its use in this package is to say where and why a
/// body failed when Foundation's decoder gives no path (see ``locate(_:decoding:from:)``).
package struct JSONValueDecoder: Sendable {
    /// Values the decoded types may read from ``Decoder/userInfo``.
    package var userInfo: [CodingUserInfoKey: any Sendable]

    /// Creates a decoder.
    package init(userInfo: [CodingUserInfoKey: any Sendable] = [:]) {
        self.userInfo = userInfo
    }

    /// Decodes `type` from the value.
    package func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try JSONValueDecoding(value: value, codingPath: [], userInfo: userInfo).decode(type)
    }

    /// Where a pathless `DecodingError` happened: Foundation's `JSONDecoder` on Linux reports a
    /// number that does not fit its type (`1.5` for an `Int`) as `dataCorrupted` with no coding
    /// path and "The given data was not valid JSON.".
    ///
    /// For such an error, when the body is valid JSON, this decodes `type` again and returns
    /// the error it throws when that is a number that does not fit its type, with the number's
    /// path; in every other case it returns `error` unchanged. Foundation stays the judge of
    /// whether decoding fails; this only locates and explains.
    package func locate<T: Decodable>(
        _ error: DecodingError, decoding type: T.Type, from body: [UInt8]
    ) -> DecodingError {
        guard case .dataCorrupted(let context) = error, context.codingPath.isEmpty,
            let root = try? JSONParser().parse(body)
        else { return error }
        do {
            _ = try decode(type, from: root)
            return error
        } catch let located as DecodingError {
            // Foundation gives a path for every failure but a number's. Any other error here
            // comes from a type Foundation reads its own way (a `Date` under a strategy, a
            // `URL` from a string, a `Decimal` from a number) and is this decoder's, not the
            // body's.
            guard case .typeMismatch(let expected, let context) = located, !context.codingPath.isEmpty,
                expected is any FixedWidthInteger.Type || expected is any BinaryFloatingPoint.Type,
                root.value(atCodingPath: context.codingPath)?.isNumber == true
            else { return error }
            return located
        } catch _ {
            return error
        }
    }
}

extension JSONValue {
    /// The value at a `Codable` coding path (array indexes and object keys), or nil when there
    /// is none.
    public func value(atCodingPath path: [any CodingKey]) -> JSONValue? {
        var current = self
        for key in path {
            let next: JSONValue?
            switch current {
            case .array: next = key.intValue.flatMap { current[$0] }
            case .object: next = current[key.stringValue]
            default: next = nil
            }
            guard let next else { return nil }
            current = next
        }
        return current
    }

    fileprivate var isNumber: Bool {
        switch self {
        case .int, .number: true
        default: false
        }
    }
}
