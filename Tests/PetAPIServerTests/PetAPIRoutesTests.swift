import HTTPCore
import HTTPHandlerKit
import HTTPServerKit
import JSONKit
import Testing

@testable import PetAPIServer

/// The API's handler over a fresh in-memory store, called as a function: request in, reply
/// out, no socket (the wire is covered by `PetAPILiveTests` and the recording tests).
struct PetAPI {
    let handler: PetAPIHandler

    init() throws {
        handler = PetAPIHandler(store: try PetStore(path: ":memory:"))
    }

    func call(
        _ method: HTTPMethod, _ path: String, json: String? = nil, contentType: String = "application/json"
    ) throws -> (status: Int, body: JSONValue?, headers: HTTPHeaders) {
        let headers: HTTPHeaders = json == nil ? [:] : ["Content-Type": contentType]
        let request = HTTPServerRequest(
            method: method, target: path, headers: headers, body: json.map { Array($0.utf8) } ?? [])
        let response = try #require(handler.reply(to: request).response())
        let body = response.body.isEmpty ? nil : try JSONValue(parsing: response.body)
        return (response.status.code, body, response.headers)
    }
}

@Suite struct PetAPIRoutesTests {
    @Test func listsSeedDataShapedAsTheAppModels() throws {
        let api = try PetAPI()
        let (status, body, headers) = try api.call(.get, "/api/pets")
        #expect(status == 200)
        #expect(headers["Content-Type"] == "application/json")
        #expect(body?[0] == ["firstName": "Rex", "lastName": "Smith", "vetId": 1])
        #expect(body?.arrayValue?.count == 4)
        let vet = try api.call(.get, "/api/vets/3")
        #expect(vet.body == ["firstName": "Grace", "lastName": "Okafor", "title": "DVM, PhD"])
    }

    @Test func createUpdateDeleteRoundTrip() throws {
        let api = try PetAPI()
        let created = try api.call(.post, "/api/pets", json: #"{"firstName":"Kiwi","vetId":2}"#)
        #expect(created.status == 201)
        #expect(created.headers["Location"] == "/api/pets/5")
        #expect(created.body == ["firstName": "Kiwi", "lastName": nil, "vetId": 2])
        let updated = try api.call(
            .put, "/api/vets/2", json: #"{"firstName":"Omar","lastName":"Haddad","title":null}"#)
        #expect(updated.status == 200)
        #expect(try api.call(.get, "/api/vets/2").body?["title"] == .null)
        #expect(try api.call(.delete, "/api/pets/5").status == 204)
        #expect(try api.call(.get, "/api/pets/5").status == 404)
        #expect(try api.call(.delete, "/api/vets/3").status == 204)
        #expect(try api.call(.get, "/api/pets/4").body?["vetId"] == 3)
    }

    @Test(arguments: [
        (#"{"vetId":1}"#, 400, "firstName: expected a non-empty string, found nothing"),
        (#"{"firstName":"  ","vetId":1}"#, 400, "firstName: expected a non-empty string, found '  '"),
        (#"{"firstName":"Kiwi","vetId":"1"}"#, 400, "vetId: expected an integer, found string \"1\""),
        (
            #"{"firstName":"Kiwi","vetId":1,"colour":"red"}"#, 400,
            "colour: unexpected field; expected only 'firstName', 'lastName', 'vetId'"
        ),
        (#"{"firstName":"Kiwi","vetId":99}"#, 422, "vetId: no vet with id 99"),
        (#"[1]"#, 400, "body: expected an object, found array"),
    ])
    func writesNameTheBadField(json: String, status: Int, message: String) throws {
        let api = try PetAPI()
        let response = try api.call(.post, "/api/pets", json: json)
        #expect(response.status == status)
        #expect(response.body?["code"] == .int(Int64(status)))
        #expect(response.body?["message"]?.stringValue == message)
        #expect(try api.call(.get, "/api/pets").body?.arrayValue?.count == 4)
    }

    @Test func malformedJSONAndWrongMediaTypeAreRefused() throws {
        let api = try PetAPI()
        let truncated = try api.call(.post, "/api/pets", json: #"{"firstName":"#)
        #expect(truncated.status == 400)
        #expect(truncated.body?["message"]?.stringValue?.hasPrefix("body is not valid JSON") == true)
        let form = try api.call(
            .post, "/api/pets", json: "firstName=x", contentType: "application/x-www-form-urlencoded")
        #expect(form.status == 415)
    }

    @Test func unknownRoutesIdsAndMethods() throws {
        let api = try PetAPI()
        #expect(try api.call(.get, "/api/pets/99").body?["message"] == "No pet with id 99")
        #expect(try api.call(.get, "/api/pets/abc").status == 404)
        #expect(try api.call(.get, "/api/owners").status == 404)
        let patch = try api.call(.patch, "/api/pets/1", json: "{}")
        #expect(patch.status == 405)
        #expect(patch.headers["Allow"] == "GET, HEAD, PUT, DELETE")
        let health = try api.call(.get, "/health")
        #expect(health.body == ["status": "ok", "database": "ok"])
    }

    /// A 404 names the resource the path asked for, never a word cut from another segment.
    @Test(arguments: [
        ("/api/api/pets", "No resource 'api' in '/api/api/pets'; resources: /api/pets, /api/vets"),
        ("/api/owners", "No resource 'owners' in '/api/owners'; resources: /api/pets, /api/vets"),
        ("/api/pets/abc", "No pet with id 'abc'"),
        ("/api/vets/0", "No vet with id '0'"),
    ])
    func aNotFoundNamesTheResource(path: String, message: String) throws {
        let answer = try PetAPI().call(.get, path)
        #expect(answer.status == 404)
        #expect(answer.body?["message"] == .string(message))
    }

    @Test(arguments: ["1", "42", "9223372036854775807"])
    func canonicalIDsAreIDs(_ segment: String) {
        #expect(PetAPIHandler.resourceID(Substring(segment)) == Int64(segment))
    }

    @Test(arguments: [
        "+1", "-1", "01", "0", "00", " 1", "1 ", "1.0", "1e0", "0x1", "١", "9223372036854775808",
        "99999999999999999999", "",
    ])
    func nonCanonicalIDsNameNothing(_ segment: String) {
        #expect(PetAPIHandler.resourceID(Substring(segment)) == nil)
    }

    @Test func aSignedOrPaddedIDIsNotPetOne() throws {
        let api = try PetAPI()
        for path in ["/api/pets/+1", "/api/pets/01", "/api/pets/%2B1", "/api/vets/+1"] {
            #expect(try api.call(.get, path).status == 404, "GET \(path)")
            #expect(try api.call(.delete, path).status == 404, "DELETE \(path)")
            let update = try api.call(.put, path, json: #"{"firstName":"X","lastName":"Y","vetId":1}"#)
            #expect(update.status == 404, "PUT \(path)")
        }
        let one = try api.call(.get, "/api/pets/1")
        #expect(one.status == 200)
        #expect(one.body?["firstName"] != "X", "pet 1 unchanged")
    }
}
