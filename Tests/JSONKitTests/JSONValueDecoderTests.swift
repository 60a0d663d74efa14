import JSONKit
import Testing

@Suite struct JSONValueDecoderTests {
    struct Pet: Decodable, Equatable {
        let firstName: String?
        let vetId: Int?
    }

    struct Numbers: Decodable, Equatable {
        var small: Int8?
        var unsigned: UInt?
        var double: Double?
        var float: Float?
        var flag: Bool?
        var name: String?
    }

    /// Decodes `T` from JSON text, or gives the error's kind, rendered path and message.
    func failure<T: Decodable>(_ type: T.Type, _ json: String) throws -> (kind: String, path: String, message: String)?
    {
        let value = try JSONValue(parsing: json)
        do {
            _ = try JSONValueDecoder().decode(type, from: value)
            return nil
        } catch let error as DecodingError {
            switch error {
            case .typeMismatch(let type, let context):
                return ("typeMismatch(\(type))", render(context.codingPath), context.debugDescription)
            case .valueNotFound(let type, let context):
                return ("valueNotFound(\(type))", render(context.codingPath), context.debugDescription)
            case .keyNotFound(let key, let context):
                return ("keyNotFound", render(context.codingPath + [key]), context.debugDescription)
            case .dataCorrupted(let context):
                return ("dataCorrupted", render(context.codingPath), context.debugDescription)
            @unknown default:
                return ("unknown", "", "\(error)")
            }
        }
    }

    func render(_ path: [any CodingKey]) -> String {
        path.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }.joined()
    }

    @Test func decodesObjectsArraysAndOptionals() throws {
        let value = try JSONValue(parsing: #"[{"firstName": "Rex", "vetId": 1}, {"vetId": null}, {}]"#)
        let pets = try JSONValueDecoder().decode([Pet].self, from: value)
        #expect(
            pets == [
                Pet(firstName: "Rex", vetId: 1), Pet(firstName: nil, vetId: nil), Pet(firstName: nil, vetId: nil),
            ])
    }

    @Test func aFractionOrAnOverflowInAnIntFailsAtItsPath() throws {
        let fraction = try #require(try failure([Pet].self, #"[{"firstName": "Rex", "vetId": 1.5}]"#))
        #expect(fraction.kind == "typeMismatch(Int)")
        #expect(fraction.path == "[0].vetId")
        #expect(fraction.message == "number 1.5 does not fit in Int")
        let overflow = try #require(try failure([Pet].self, #"[{"vetId": 1}, {"vetId": 99999999999999999999}]"#))
        #expect(overflow.path == "[1].vetId")
        #expect(overflow.message == "number 99999999999999999999 does not fit in Int")
    }

    @Test(arguments: [
        (#"{"small": 300}"#, ".small", "number 300 does not fit in Int8"),
        (#"{"small": -129}"#, ".small", "number -129 does not fit in Int8"),
        (#"{"small": 1.25}"#, ".small", "number 1.25 does not fit in Int8"),
        (#"{"unsigned": -1}"#, ".unsigned", "number -1 does not fit in UInt"),
        (#"{"unsigned": 18446744073709551616}"#, ".unsigned", "number 18446744073709551616 does not fit in UInt"),
        (#"{"double": 1e400}"#, ".double", "number 1e400 does not fit in Double"),
        (#"{"float": 1e39}"#, ".float", "number 1e39 does not fit in Float"),
        (#"{"flag": 1}"#, ".flag", "expected Bool, found number"),
        (#"{"name": 1}"#, ".name", "expected String, found number"),
        (#"{"small": "1"}"#, ".small", "expected Int8, found string"),
        (#"{"double": true}"#, ".double", "expected Double, found boolean"),
    ])
    func numbersMustFitExactly(json: String, path: String, message: String) throws {
        let found = try #require(try failure(Numbers.self, json))
        #expect(found.kind.hasPrefix("typeMismatch"))
        #expect(found.path == path)
        #expect(found.message == message)
    }

    @Test func numbersThatFitAreAcceptedAsFoundationAcceptsThem() throws {
        let json = #"""
            {"small": -128, "unsigned": 18446744073709551615, "double": 0.1, "float": 3.5, "flag": true,
             "name": "Rex"}
            """#
        let numbers = try JSONValueDecoder().decode(Numbers.self, from: try JSONValue(parsing: json))
        #expect(
            numbers
                == Numbers(
                    small: -128, unsigned: .max, double: 0.1, float: 3.5, flag: true, name: "Rex"))
        // A whole number with a fraction or exponent fits an integer type.
        let whole = try JSONValue(parsing: #"[1.0, 1e2, -0, 12345678901234567890]"#)
        #expect(try JSONValueDecoder().decode([UInt64].self, from: whole) == [1, 100, 0, 12_345_678_901_234_567_890])
        #expect(try JSONValueDecoder().decode([Double].self, from: whole) == [1, 100, 0, 1.2345678901234567e19])
    }

    @Test func nullAndMissingValuesAreValueNotFoundAndKeyNotFound() throws {
        struct Strict: Decodable {
            let name: String
        }
        let null = try #require(try failure([Strict].self, #"[{"name": null}]"#))
        #expect(null.kind == "valueNotFound(String)")
        #expect(null.path == "[0].name")
        let missing = try #require(try failure([Strict].self, #"[{"name": "a"}, {}]"#))
        #expect(missing.kind == "keyNotFound")
        #expect(missing.path == "[1].name")
        let object = try #require(try failure([Strict].self, #"{"name": "a"}"#))
        #expect(object.kind == "typeMismatch(Array<Any>)")
        #expect(object.path == "")
        #expect(object.message == "expected array, found object")
    }

    /// Reads `{"rows": [[1, 2], ...], "meta": {"count": n}}` with nested containers, and the
    /// rest of itself through `superDecoder(forKey:)`.
    struct Table: Decodable {
        enum Keys: String, CodingKey { case rows, meta, count, base }
        let rows: [[Int8]]
        let count: Int
        let base: Pet?

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            var rows = try container.nestedUnkeyedContainer(forKey: .rows)
            var all: [[Int8]] = []
            while !rows.isAtEnd {
                if try rows.decodeNil() {
                    all.append([])
                    continue
                }
                var row = try rows.nestedUnkeyedContainer()
                var values: [Int8] = []
                while !row.isAtEnd { values.append(try row.decode(Int8.self)) }
                all.append(values)
            }
            self.rows = all
            count = try container.nestedContainer(keyedBy: Keys.self, forKey: .meta).decode(Int.self, forKey: .count)
            base = try Pet?(from: container.superDecoder(forKey: .base))
        }
    }

    @Test func nestedContainersKeepTheFullPath() throws {
        let table = try JSONValueDecoder().decode(
            Table.self, from: try JSONValue(parsing: #"{"rows": [[1, 2], null, [3]], "meta": {"count": 3}}"#))
        #expect(table.rows == [[1, 2], [], [3]])
        #expect(table.count == 3)
        #expect(table.base == nil)
        let bad = try #require(try failure(Table.self, #"{"rows": [[1, 2], [3, 128]], "meta": {"count": 2}}"#))
        #expect(bad.path == ".rows[1][1]")
        #expect(bad.message == "number 128 does not fit in Int8")
        let count = try #require(try failure(Table.self, #"{"rows": [], "meta": {"count": 2.5}}"#))
        #expect(count.path == ".meta.count")
        let base = try #require(try failure(Table.self, #"{"rows": [], "meta": {"count": 0}, "base": {"vetId": 0.5}}"#))
        #expect(base.path == ".base.vetId")
    }

    @Test func anUnkeyedContainerPastItsEndIsValueNotFound() throws {
        struct Pair: Decodable {
            init(from decoder: any Decoder) throws {
                var container = try decoder.unkeyedContainer()
                _ = try container.decode(Int.self)
                _ = try container.decode(Int.self)
            }
        }
        let short = try #require(try failure(Pair.self, "[1]"))
        #expect(short.kind == "valueNotFound(Int)")
        #expect(short.path == "[1]")
    }

    @Test func userInfoReachesTheDecodedTypes() throws {
        struct Scaled: Decodable {
            static let key = CodingUserInfoKey(rawValue: "scale")
            let value: Int
            init(from decoder: any Decoder) throws {
                let scale = Scaled.key.flatMap { decoder.userInfo[$0] as? Int } ?? 1
                value = try decoder.singleValueContainer().decode(Int.self) * scale
            }
        }
        let key = try #require(Scaled.key)
        let scaled = try JSONValueDecoder(userInfo: [key: 10]).decode([Scaled].self, from: [1, 2])
        #expect(scaled.map(\.value) == [10, 20])
    }

    @Test func locateGivesAPathlessErrorThePathOfTheNumber() throws {
        let pathless = DecodingError.dataCorrupted(
            DecodingError.Context(codingPath: [], debugDescription: "The given data was not valid JSON."))
        let body = Array(#"[{"firstName": "Rex", "vetId": 1}, {"vetId": 1.5}]"#.utf8)
        let located = JSONValueDecoder().locate(pathless, decoding: [Pet].self, from: body)
        guard case .typeMismatch(let type, let context) = located else {
            Issue.record("expected typeMismatch, got \(located)")
            return
        }
        #expect(type is Int.Type)
        #expect(render(context.codingPath) == "[1].vetId")
        #expect(context.debugDescription == "number 1.5 does not fit in Int")
    }

    @Test func locateKeepsTheErrorItCannotImprove() throws {
        let pathless = DecodingError.dataCorrupted(
            DecodingError.Context(codingPath: [], debugDescription: "The given data was not valid JSON."))
        func kept(_ body: String, _ error: DecodingError = pathless) -> Bool {
            let located = JSONValueDecoder().locate(error, decoding: [Pet].self, from: Array(body.utf8))
            return "\(located)" == "\(error)"
        }
        // The body decodes, is not JSON, or fails somewhere other than at a number.
        #expect(kept(#"[{"vetId": 1}]"#))
        #expect(kept(#"[{"vetId": 1.5"#))
        #expect(kept(#"[{"vetId": "1"}]"#))
        #expect(kept(#"[{"vetId": 1}, {}]"#))
        // A number this decoder cannot read for a type Foundation reads its own way.
        let body = Array(#"[{"price": 1.5}]"#.utf8)
        let priced = JSONValueDecoder().locate(pathless, decoding: [Priced].self, from: body)
        #expect("\(priced)" == "\(pathless)")
        // The error already has a path.
        let located = DecodingError.typeMismatch(
            Int.self, DecodingError.Context(codingPath: [JSONCodingKeyForTests.vetId], debugDescription: "x"))
        #expect(kept(#"[{"vetId": 1.5}]"#, located))
    }

    /// Reads its price from an object, as `Decimal` does outside Foundation's `JSONDecoder`.
    struct Priced: Decodable {
        struct Amount: Decodable {
            let mantissa: Int
        }
        let price: Amount
    }

    enum JSONCodingKeyForTests: String, CodingKey {
        case vetId
    }
}
