import APISchema
import ContractKit
import ContractModel
import Foundation
import JSONKit
import Testing

/// An app's contract from its endpoint declarations and its own decoder: keys, dates and
/// Swift property names as the app's `JSONDecoder` and `CodingKeys` really have them.
@Suite struct ConsumerContractTests {
    enum Visibility: String, Decodable { case `public`, `private` }

    struct Owner: Decodable, ContractDecodable {
        let login: String
        let id: Int
        static let requiredKeys = ["login"]
    }

    /// CodingKeys in another order than the properties, snake_case JSON through the decoder.
    struct Repo: Decodable, ContractDecodable {
        let fullName: String
        let stargazersCount: Int
        let owner: Owner
        let createdAt: Date
        let topics: [String]?
        let visibility: Visibility?

        enum CodingKeys: String, CodingKey {
            case visibility, topics, createdAt, owner, stargazersCount, fullName
        }

        static let requiredKeys = ["full_name", "stargazersCount", "owner"]
    }

    struct UserRepos: ContractEndpoint {
        typealias Response = [Repo]
        static let operation = EndpointOperation(
            .get, "/users/{login}/repos", operationId: "listUserRepos",
            parameters: [.path("login", String.self, examples: ["octocat"])])
    }

    struct RepoDetail: ContractEndpoint {
        typealias Response = Repo
        static let operation = EndpointOperation(
            .get, "/repos/{full_name}", operationId: "getRepo",
            parameters: [.path("full_name", String.self, valuesFrom: UserRepos.self, at: "$[*].full_name")],
            errors: [.status(404, "No such repository")])
    }

    static func snakeCaseDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    static let app = ConsumerContract(
        title: "Repo Browser", version: "1.0.0", endpoints: [UserRepos.self, RepoDetail.self],
        makeDecoder: snakeCaseDecoder)

    static let goodRepo =
        #"{"full_name": "octocat/hello", "stargazers_count": 3, "owner": {"login": "octocat", "id": 1}, "created_at": "2024-05-01T12:30:00Z", "topics": ["swift"], "visibility": "public"}"#

    @Test func theContractIsTheDeclaredEndpointsWithSnakeCaseKeys() throws {
        let (contract, models) = try Self.app.make()
        #expect(contract.operations.map(\.name) == ["GET /users/{login}/repos", "GET /repos/{full_name}"])
        #expect(Self.app.defaultOutput == "Contracts/repo-browser.openapi.json")
        let repo = try #require(contract.component(named: "Repo"))
        #expect(
            repo.properties.map(\.name) == [
                "visibility", "topics", "created_at", "owner", "stargazers_count", "full_name",
            ])
        #expect(repo.required == ["created_at", "owner", "stargazers_count", "full_name"])
        // The real key → property mapping, with the declared type, whatever the order.
        #expect(
            repo.property(named: "full_name")?.schema.swiftProperty == "Repo.fullName: String")
        #expect(
            repo.property(named: "stargazers_count")?.schema.swiftProperty
                == "Repo.stargazersCount: Int")
        #expect(repo.property(named: "created_at")?.schema.format == "date-time")
        #expect(repo.property(named: "visibility")?.schema.types == [.string, .null])
        let detail = try #require(contract.operation(named: "GET /repos/{full_name}"))
        #expect(
            detail.pathParameters.first?.sources == [
                ParameterSource(operation: "GET /users/{login}/repos", path: "$[*].full_name")
            ])
        #expect(detail.response(for: 404)?.schema == nil)
        #expect(models.coverage(of: contract) == .full)
    }

    @Test func aCorrectSnakeCaseBodyHasNoFindingsAndDrift_NamesTheRealProperty() throws {
        let (contract, models) = try Self.app.make()
        let validator = ContractValidator(contract: contract, models: models)
        let operation = try #require(contract.operation(named: "GET /repos/{full_name}"))
        let good = validator.validate(
            ObservedResponse(url: "http://x/repos/octocat/hello", status: 200, body: Array(Self.goodRepo.utf8)),
            for: operation)
        #expect(good.findings.isEmpty, "\(good.findings)")

        let drifted = Self.goodRepo.replacingOccurrences(
            of: #""stargazers_count": 3"#, with: #""stargazers_count": "3""#
        )
        .replacingOccurrences(of: "full_name", with: "fullName")
        let bad = validator.validate(
            ObservedResponse(url: "http://x/repos/octocat/hello", status: 200, body: Array(drifted.utf8)),
            for: operation)
        let byPath = Dictionary(bad.findings.map { ($0.path + " " + $0.id.rawValue, $0.swift) }) { first, _ in first }
        #expect(
            byPath["$.stargazers_count response-property-type-changed"]
                == "Repo.stargazersCount: Int")
        #expect(
            byPath["$.full_name response-property-probably-renamed"] == "Repo.fullName: String",
            "\(bad.findings.map { "\($0.id.rawValue) \($0.path)" })")
    }

    struct Camel: Decodable {
        let userID: Int
    }

    @Test func aKeyTheDecoderCanNeverReachIsAnErrorNotAGuess() {
        // convertFromSnakeCase turns "user_id" into "userId", never "userID"; only the JSON
        // key "userID" itself reaches it, so that is the contract.
        let reflector = SchemaReflector(decoder: Self.snakeCaseDecoder())
        #expect(throws: Never.self) { try reflector.schema(for: Camel.self) }
        #expect(reflector.components.first?.schema.properties.map(\.name) == ["userID"])

        struct SnakeKeys: Decodable {
            let fullName: String
            enum CodingKeys: String, CodingKey { case fullName = "full_name" }
        }
        #expect {
            try SchemaReflector(decoder: Self.snakeCaseDecoder()).schema(for: SnakeKeys.self)
        } throws: { error in
            guard case .cannotReflect(_, _, let reason) = error as? ContractError else { return false }
            return reason.contains("no JSON key decodes to the coding key 'full_name'")
                && reason.contains("convertFromSnakeCase")
        }
    }

    @Test func aCustomKeyStrategyIsAskedWhichJSONKeyReachesEachCodingKey() throws {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .custom { path in
            let key = path.last!.stringValue
            return AnyKey(key.replacingOccurrences(of: "-", with: "_").lowercased())
        }
        struct Dashed: Decodable {
            // swift-format-ignore: AlwaysUseLowerCamelCase
            let first_name: String
        }
        let reflector = SchemaReflector(decoder: decoder)
        _ = try reflector.schema(for: Dashed.self)
        // "first_name" itself reaches first_name; so does "first-name", but the plain key comes first.
        #expect(reflector.components.first?.schema.properties.map(\.name) == ["first_name"])
    }

    struct AnyKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(_ value: String) { stringValue = value }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    struct Dated: Decodable {
        let at: Date
        let blob: Data?
    }

    @Test(arguments: [
        ("iso8601", [JSONKind.string], "date-time"), ("secondsSince1970", [.number], nil),
        ("millisecondsSince1970", [.number], nil), ("deferredToDate", [.number], nil),
        ("yyyy-MM-dd", [.string], "date"),
    ])
    func dateStrategiesGiveTheirSchema(strategy: String, types: [JSONKind], format: String?) throws {
        let decoder = JSONDecoder()
        switch strategy {
        case "iso8601": decoder.dateDecodingStrategy = .iso8601
        case "secondsSince1970": decoder.dateDecodingStrategy = .secondsSince1970
        case "millisecondsSince1970": decoder.dateDecodingStrategy = .millisecondsSince1970
        case "deferredToDate": decoder.dateDecodingStrategy = .deferredToDate
        default:
            let formatter = DateFormatter()
            formatter.dateFormat = strategy
            formatter.locale = Locale(identifier: "en_US_POSIX")
            decoder.dateDecodingStrategy = .formatted(formatter)
        }
        let reflector = SchemaReflector(decoder: decoder)
        _ = try reflector.schema(for: Dated.self)
        let at = try #require(reflector.components.first?.schema.property(named: "at")?.schema)
        #expect(at.types == types)
        #expect(at.format == format)
        let blob = try #require(reflector.components.first?.schema.property(named: "blob")?.schema)
        #expect(blob.format == "byte")
    }

    /// A hand-written init that reads some keys only when others are there.
    struct Conditional: Decodable {
        let kind: String
        let radius: Double?
        let tags: [String: [Int]]

        enum CodingKeys: String, CodingKey { case kind, radius, tags }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            kind = try container.decode(String.self, forKey: .kind)
            radius = container.contains(.radius) ? try container.decode(Double.self, forKey: .radius) : nil
            tags = try container.decode([String: [Int]].self, forKey: .tags)
        }
    }

    struct Page<Item: Decodable>: Decodable {
        let items: [Item]
        let next: String?
    }

    @Test func conditionalKeysGenericsAndDictionariesOfArrays() throws {
        let reflector = SchemaReflector()
        _ = try reflector.schema(for: Page<Conditional>.self)
        let page = try #require(reflector.components.first { $0.name.hasPrefix("Page") }?.schema)
        #expect(page.properties.map(\.name) == ["items", "next"])
        let conditional = try #require(reflector.components.first { $0.name == "Conditional" })
        #expect(conditional.schema.required == ["kind", "tags"], "radius is read only when present")
        let tags = try #require(conditional.schema.property(named: "tags")?.schema)
        guard case .schema(let values)? = tags.additionalProperties else {
            Issue.record("tags: \(tags)")
            return
        }
        #expect(values.types == [.array] && values.items == Schema(types: [.integer], format: "int64"))
        #expect(conditional.schema.property(named: "radius")?.schema.swiftProperty == "Conditional.radius: Double?")
    }

    struct BadTemplate: ContractEndpoint {
        typealias Response = Owner
        static let operation = EndpointOperation(.get, "/users/{login}", operationId: "getUser")
    }

    struct Duplicate: ContractEndpoint {
        typealias Response = [Repo]
        static let operation = UserRepos.operation
    }

    @Test func aRequiredKeyIsTheJSONKeyTheCodingKeyOrTheProperty() {
        // Under the default keys the JSON key is "fullName": "full_name" names nothing.
        #expect(throws: ContractError.requiredKeyNotDecoded(type: "Repo", key: "full_name")) {
            try ConsumerContract(title: "T", version: "1", endpoints: [UserRepos.self]).make()
        }
    }

    @Test func declarationsThatContradictThemselvesAreRefused() {
        #expect {
            try ConsumerContract(title: "T", version: "1", endpoints: [BadTemplate.self]).make()
        } throws: { error in
            "\(error)".contains(
                "the path template '/users/{login}' has {login} but the path parameters declared are none")
        }
        #expect {
            try ConsumerContract(
                title: "T", version: "1", endpoints: [UserRepos.self, Duplicate.self],
                makeDecoder: Self.snakeCaseDecoder
            )
            .make()
        } throws: { error in
            "\(error)".contains("it declares GET /users/{login}/repos, which 'UserRepos' already declares")
        }
        #expect {
            try ConsumerContract(
                title: "T", version: "1", endpoints: [RepoDetail.self], makeDecoder: Self.snakeCaseDecoder
            ).make()
        } throws: { error in
            "\(error)".contains("takes values from GET /users/{login}/repos, which is not among the endpoints")
        }
    }

    @Test func aPathIsRenderedFromTheDeclaredTemplate() {
        #expect(RepoDetail.operation.path(["full_name": "octocat/hello"]) == "/repos/octocat/hello")
        #expect(UserRepos.operation.pathPlaceholders == ["login"])
        #expect(UserRepos.operation.path([:]) == "/users/{login}/repos")
    }
}
