import EndpointKit
import HTTPCore
import Testing

/// A model whose fields are all optional, so only a value of the wrong type fails.
struct LooseRecord: Codable, Sendable, Hashable {
    let firstName: String?
    let lastName: String?
    let vetId: Int?
}

/// A name with an optional title.
struct TitledName: Codable, Sendable, Hashable {
    let firstName: String?
    let lastName: String?
    let title: String?
}

/// A model whose fields are not optional, so missing keys and nulls fail to decode.
struct StrictPet: Decodable, Sendable, Equatable {
    let firstName: String
    let vetId: Int
}

struct Get<Response: Sendable>: Endpoint {
    var path = "/thing"
    var keyPath: String?
    var decoding: ResponseDecoding<Response>
}

@Suite struct EndpointClientResponseTests {
    func client(_ response: HTTPClientResponse) -> EndpointClient {
        EndpointClient(
            baseURL: "http://api.test",
            transport: ClosureTransport { request in
                var response = response
                response.url = request.url
                return response
            })
    }

    func send<R: Sendable>(_ response: HTTPClientResponse, _ endpoint: Get<R>) async -> Result<R, EndpointError> {
        do throws(EndpointError) {
            let value = try await client(response).send(endpoint)
            return .success(value)
        } catch {
            return .failure(error)
        }
    }

    @Test func decodesAnObjectAnArrayAStringAndACustomValue() async throws {
        let vet = try await send(
            .json(#"{"firstName":"Ann","lastName":"Lee","title":null}"#), Get<TitledName>(decoding: .json())
        ).get()
        #expect(vet == TitledName(firstName: "Ann", lastName: "Lee", title: nil))
        let pets = try await send(.json(#"[{"firstName":"Rex","vetId":1},{}]"#), Get<[LooseRecord]>(decoding: .json()))
            .get()
        #expect(
            pets == [
                LooseRecord(firstName: "Rex", lastName: nil, vetId: 1),
                LooseRecord(firstName: nil, lastName: nil, vetId: nil),
            ])
        let text = HTTPClientResponse(status: .ok, headers: ["Content-Type": "text/plain"], body: Array("pong".utf8))
        #expect(try await send(text, Get<String>(decoding: .string)).get() == "pong")
        let count = try await send(text, Get<Int>(decoding: .custom { $0.body.count })).get()
        #expect(count == 4)
    }

    @Test func keyPathUnwrapsAnEnvelope() async throws {
        let body = #"{"data":{"items":[{"firstName":"Rex","vetId":1}],"total":1}}"#
        let pets = try await send(.json(body), Get<[StrictPet]>(keyPath: "data.items", decoding: .json())).get()
        #expect(pets == [StrictPet(firstName: "Rex", vetId: 1)])
    }

    @Test func keyPathErrorsKeepTheEnvelopeInThePath() async throws {
        let body = #"{"items":[{"firstName":"Rex","vetId":1},{"firstName":"Tom","vetId":"7"}]}"#
        let result = await send(.json(body), Get<[StrictPet]>(keyPath: "items", decoding: .json()))
        guard case .failure(.decoding(let failure)) = result else {
            Issue.record("expected a decoding failure, got \(result)")
            return
        }
        #expect(failure.path == "items[1].vetId")
        #expect(failure.excerpt == #""7""#)
        let missing = await send(.json(#"{"records":[]}"#), Get<[StrictPet]>(keyPath: "items", decoding: .json()))
        guard case .failure(.decoding(let envelope)) = missing else {
            Issue.record("expected a decoding failure, got \(missing)")
            return
        }
        #expect(envelope.path == "items")
        #expect(envelope.problem == "required key 'items' is missing")
        #expect(envelope.excerpt == #"{"records":[]}"#)
    }

    @Test func typeMismatchNamesThePathExpectedFoundAndExcerpt() async {
        let body = #"[{"firstName":"Rex","vetId":1},{"firstName":"Tom","vetId":2},{"firstName":"Kit","vetId":"seven"}]"#
        let result = await send(.json(body), Get<[LooseRecord]>(decoding: .json()))
        guard case .failure(.decoding(let failure)) = result else {
            Issue.record("expected a decoding failure, got \(result)")
            return
        }
        #expect(failure.path == "[2].vetId")
        #expect(failure.type == "[LooseRecord]")
        #expect(failure.problem == "expected Int, found string")
        #expect(failure.excerpt == #""seven""#)
        #expect(failure.url == "http://api.test/thing")
        #expect(
            failure.description
                == #"http://api.test/thing: cannot decode [LooseRecord] at $[2].vetId: expected Int, found string "seven""#
        )
    }

    @Test func elementsDecodeOneByOneAndAFailureKeepsItsPlaceAndPath() async throws {
        let body = #"[{"firstName":"Rex","vetId":1}, {"firstName":"Tom","vetId":"7"}, {"firstName":"Kit","vetId":3}]"#
        let entries = try await send(.json(body), Get(decoding: .jsonElements(StrictPet.self))).get()
        #expect(entries.count == 3)
        #expect((try? entries[0].get()) == StrictPet(firstName: "Rex", vetId: 1))
        #expect((try? entries[2].get()) == StrictPet(firstName: "Kit", vetId: 3))
        guard case .failure(.decoding(let failure)) = entries[1] else {
            Issue.record("expected element 1 to fail decoding, got \(entries[1])")
            return
        }
        // The same words as decoding the whole array: its type, the index leading the path.
        #expect(
            failure.description
                == #"http://api.test/thing: cannot decode [StrictPet] at $[1].vetId: expected Int, found string "7""#)
        let nested = try await send(
            .json(#"[[1, "x"]]"#), Get(decoding: .jsonElements([Int].self))
        ).get()
        guard case .failure(.decoding(let inner)) = nested.first else {
            Issue.record("expected the nested array to fail, got \(nested)")
            return
        }
        #expect(inner.path == "[0][1]" && inner.type == "[[Int]]")
    }

    @Test func elementsOfABodyThatIsNoArrayOrNoJSONFailAsAWhole() async {
        let get = Get(decoding: .jsonElements(StrictPet.self))
        let cases: [(body: String, message: String)] = [
            (#"{"items": []}"#, "cannot decode [StrictPet] at $: expected an array, found object"),
            (#"[{"firstName":"Rex","vetId":1}"#, "expected a JSON body, found invalid JSON (JSON ends early"),
            (#"[{"firstName":"Rex","vetId":tru}]"#, "expected a JSON body, found invalid JSON"),
            ("", "expected a JSON body, found an empty body"),
        ]
        for (body, message) in cases {
            let result = await send(.json(body), get)
            guard case .failure(let error) = result else {
                Issue.record("\(body): expected a failure, got \(result)")
                continue
            }
            #expect("\(error)".contains(message), "\(body): \(error)")
        }
        // With a key path the elements decode together: the first failure fails the list.
        let enveloped = await send(
            .json(#"{"items":[{"firstName":"Rex","vetId":"1"}]}"#),
            Get(keyPath: "items", decoding: .jsonElements(StrictPet.self)))
        guard case .failure(.decoding(let failure)) = enveloped else {
            Issue.record("expected the enveloped list to fail, got \(enveloped)")
            return
        }
        #expect(failure.path == "items[0].vetId")
    }

    @Test func missingKeyAndNullAreExplained() async {
        let missing = await send(.json(#"[{"firstName":"Rex"}]"#), Get<[StrictPet]>(decoding: .json()))
        guard case .failure(.decoding(let failure)) = missing else {
            Issue.record("expected a decoding failure, got \(missing)")
            return
        }
        #expect(failure.path == "[0].vetId")
        #expect(failure.problem == "required key 'vetId' is missing")
        #expect(failure.excerpt == #"{"firstName":"Rex"}"#)
        let null = await send(.json(#"{"firstName":null,"vetId":1}"#), Get<StrictPet>(decoding: .json()))
        guard case .failure(.decoding(let nullFailure)) = null else {
            Issue.record("expected a decoding failure, got \(null)")
            return
        }
        #expect(nullFailure.path == "firstName")
        #expect(nullFailure.problem == "expected String, found null")
        #expect(nullFailure.excerpt == "null")
    }

    @Test func longExcerptsAreShortened() async {
        let long = String(repeating: "x", count: 500)
        let result = await send(.json(#"{"firstName":"\#(long)","vetId":[1,2]}"#), Get<StrictPet>(decoding: .json()))
        guard case .failure(.decoding(let failure)) = result else {
            Issue.record("expected a decoding failure, got \(result)")
            return
        }
        #expect(failure.problem == "expected Int, found array")
        #expect(failure.excerpt == "[1,2]")
        let keyMissing = await send(.json(#"{"firstName":"\#(long)"}"#), Get<StrictPet>(decoding: .json()))
        guard case .failure(.decoding(let objectFailure)) = keyMissing else {
            Issue.record("expected a decoding failure, got \(keyMissing)")
            return
        }
        #expect(objectFailure.excerpt.count == 80)
        #expect(objectFailure.excerpt.hasSuffix("…"))
    }

    // Foundation on Linux reports a number that does not fit as pathless "not valid JSON"; the
    // failure still names the value, what was expected, and shows the number.
    @Test(arguments: [
        (#"[{"firstName":"Rex","vetId":1.5}]"#, nil, "[0].vetId", "1.5"),
        (#"[{"firstName":"Rex","vetId":99999999999999999999}]"#, nil, "[0].vetId", "99999999999999999999"),
        (#"[{"firstName":"Rex","vetId":1},{"firstName":"Tom","vetId":2e-1}]"#, nil, "[1].vetId", "2e-1"),
        (#"{"data":{"items":[{"firstName":"Rex","vetId":1.5}]}}"#, "data.items", "data.items[0].vetId", "1.5"),
    ])
    func numbersThatDoNotFitNameTheirPath(body: String, keyPath: String?, path: String, excerpt: String) async {
        let result = await send(.json(body), Get<[LooseRecord]>(keyPath: keyPath, decoding: .json()))
        guard case .failure(.decoding(let failure)) = result else {
            Issue.record("expected a decoding failure, got \(result)")
            return
        }
        #expect(failure.path == path)
        #expect(failure.problem == "expected Int, found number")
        #expect(failure.excerpt == excerpt)
        #expect(
            failure.description
                == "http://api.test/thing: cannot decode [LooseRecord] at $\(path.hasPrefix("[") ? "" : ".")\(path): "
                + "expected Int, found number \(excerpt)")
    }

    @Test(arguments: [
        (
            "[{\"firstName\":\"Rex\"",
            "invalid JSON (JSON ends early at line 1, column 20 (offset 19): expected ',' or '}' to close the object at offset 1)"
        ),
        (
            "{\"a\":1}\n<html>",
            "invalid JSON (line 2, column 1 (offset 8): expected end of input after the JSON value, found '<')"
        ),
        ("", "an empty body"),
    ])
    func bodiesThatAreNotJSONSayWhy(body: String, reason: String) async {
        let result = await send(.json(body), Get<[LooseRecord]>(decoding: .json()))
        guard case .failure(.notJSON(_, let found, let excerpt, _)) = result else {
            Issue.record("expected notJSON, got \(result)")
            return
        }
        #expect(found == reason)
        #expect(excerpt == body.replacing("\n", with: " "))
    }

    @Test func wrongMediaTypeIsNotJSON() async throws {
        let html = HTTPClientResponse(
            status: .ok, headers: ["Content-Type": "text/html; charset=utf-8"], body: Array("<html>hi</html>".utf8))
        let result = await send(html, Get<[LooseRecord]>(decoding: .json()))
        guard case .failure(.notJSON(let mediaType, let reason, let excerpt, _)) = result else {
            Issue.record("expected notJSON, got \(result)")
            return
        }
        #expect(mediaType == "text/html")
        #expect(reason == "media type 'text/html'")
        #expect(excerpt == "<html>hi</html>")
        let vendor = HTTPClientResponse(
            status: .ok, headers: ["Content-Type": "application/vnd.pets+json"], body: Array("[]".utf8))
        #expect(try await send(vendor, Get<[LooseRecord]>(decoding: .json())).get() == [])
    }

    @Test func errorStatusCarriesTheParsedCodeAndMessage() async {
        let result = await send(
            .json(#"{"code":404,"message":"no vet 7"}"#, status: .notFound), Get<TitledName>(decoding: .json()))
        guard case .failure(.http(let status, let serverError, _, let url)) = result else {
            Issue.record("expected an HTTP error, got \(result)")
            return
        }
        #expect(status == .notFound)
        #expect(url == "http://api.test/thing")
        #expect(serverError as? APIErrorMessage == APIErrorMessage(code: 404, message: "no vet 7"))
        #expect("\(result)".contains("HTTP 404 Not Found: 'no vet 7' (code 404)"))
    }

    @Test func errorStatusWithoutAnErrorBodyKeepsAnExcerpt() async {
        let page = HTTPClientResponse(
            status: .badGateway, headers: ["Content-Type": "text/html"], body: Array("<h1>Bad gateway</h1>".utf8))
        let result = await send(page, Get<TitledName>(decoding: .json()))
        guard case .failure(.http(let status, let serverError, let excerpt, _)) = result else {
            Issue.record("expected an HTTP error, got \(result)")
            return
        }
        #expect(status == .badGateway)
        #expect(serverError == nil)
        #expect(excerpt == "<h1>Bad gateway</h1>")
    }

    @Test func serviceUnavailableIsMaintenance() async {
        var response = HTTPClientResponse.json(#"{"code":503,"message":"back at 5pm"}"#, status: .serviceUnavailable)
        response.headers.add(name: "Retry-After", value: "120")
        let result = await send(response, Get<TitledName>(decoding: .json()))
        guard case .failure(.maintenance(let serverError, let retryAfter, _)) = result else {
            Issue.record("expected maintenance, got \(result)")
            return
        }
        #expect(retryAfter == "120")
        #expect(serverError as? APIErrorMessage == APIErrorMessage(code: 503, message: "back at 5pm"))
    }

    @Test func transportErrorsKeepCurlsMessageAndCancellationIsItsOwnCase() async {
        func failing(_ kind: HTTPClientError.Kind) -> EndpointClient {
            EndpointClient(
                baseURL: "http://api.test",
                transport: ClosureTransport { request throws(HTTPClientError) in
                    throw HTTPClientError(
                        kind: kind, url: request.url, message: "Failed to connect to api.test port 80", curlCode: 7)
                })
        }
        await #expect {
            try await failing(.couldNotConnect).send(Get<[LooseRecord]>(decoding: .json()))
        } throws: { error in
            guard case .transport(let transport) = error as? EndpointError else { return false }
            return transport.kind == .couldNotConnect && transport.message == "Failed to connect to api.test port 80"
        }
        await #expect {
            try await failing(.cancelled).send(Get<[LooseRecord]>(decoding: .json()))
        } throws: { error in
            guard case .cancelled = error as? EndpointError else { return false }
            return true
        }
    }

    @Test func messagesNeverFallBackToFoundationsBareText() async {
        let bodies = [
            "[1", "{\"a\":", "[{\"firstName\":3}]", "{}", "null", "\"text\"", "[{\"firstName\":\"Rex\",\"vetId\":1.5}]",
        ]
        for body in bodies {
            let result = await send(.json(body), Get<[StrictPet]>(decoding: .json()))
            let text = "\(result)"
            #expect(!text.contains("couldn’t be read") && !text.contains("correct format"), "\(body): \(text)")
            #expect(!text.contains("not valid JSON"), "\(body): \(text)")
            #expect(text.contains("http://api.test/thing"))
        }
    }
}
