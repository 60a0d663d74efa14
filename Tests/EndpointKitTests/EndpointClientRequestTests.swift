import EndpointKit
import Foundation
import HTTPCore
import TestSupport
import Testing

@Suite struct EndpointClientRequestTests {
    struct Search: Endpoint {
        typealias Response = [String]
        var method: HTTPMethod = .get
        var path = "/items/search"
        var query: [QueryItem] = []
        var headers: HTTPHeaders = HTTPHeaders()
        var body: RequestBody?
    }

    let client = EndpointClient(baseURL: "http://api.test/v1/", transport: ClosureTransport { _ in .json("[]") })

    @Test func urlJoinsBaseAndPathAndEncodesQuery() throws {
        let request = try client.request(
            for: Search(path: "items/by name", query: [QueryItem("q", "Rex & Co"), QueryItem("page", "2"), ["ü", ""]]))
        #expect(request.url == "http://api.test/v1/items/by%20name?q=Rex+%26+Co&page=2&%C3%BC=")
        #expect(request.method == .get)
        #expect(request.headers["Accept"] == "application/json")
        #expect(request.body == nil)
    }

    @Test func jsonBodyIsEncodedWithItsContentType() throws {
        struct NewPet: Encodable, Sendable {
            let firstName: String
            let vetId: Int
        }
        let request = try client.request(
            for: Search(method: .post, body: .json(NewPet(firstName: "Rex", vetId: 3))))
        #expect(request.body.map { String(decoding: $0, as: UTF8.self) } == #"{"firstName":"Rex","vetId":3}"#)
        #expect(request.headers["Content-Type"] == "application/json")
    }

    @Test func formBodyIsURLEncoded() throws {
        let request = try client.request(
            for: Search(method: .post, body: .form([QueryItem("name", "Rex Smith"), QueryItem("note", "a=b&c")])))
        #expect(request.body.map { String(decoding: $0, as: UTF8.self) } == "name=Rex+Smith&note=a%3Db%26c")
        #expect(request.headers["Content-Type"] == "application/x-www-form-urlencoded")
    }

    @Test func multipartBodyHasFieldsAndFiles() throws {
        let parts: [MultipartFormPart] = [
            .field("name", "Rex"),
            .file("photo", filename: "rex.png", contentType: "image/png", data: [0x89, 0x50]),
        ]
        let request = try client.request(for: Search(method: .post, body: .multipart(parts, boundary: "XyZ")))
        let head =
            "--XyZ\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\nRex\r\n"
            + "--XyZ\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"rex.png\"\r\n"
            + "Content-Type: image/png\r\n\r\n"
        #expect(request.body == Array(head.utf8) + [0x89, 0x50] + Array("\r\n--XyZ--\r\n".utf8))
        #expect(request.headers["Content-Type"] == "multipart/form-data; boundary=XyZ")
    }

    @Test func multipartFileIsReadFromDiskAndBoundaryAvoidsTheData() throws {
        let folder = try TemporaryDirectory(prefix: "multipart", files: ["notes.txt": "hello"])
        defer { folder.remove() }
        let path = folder.file("notes.txt")
        let part = try MultipartFormPart.file("notes", contentsOf: path, contentType: "text/plain")
        #expect(part.data == Array("hello".utf8))
        #expect(part.filename == path.split(separator: "/").last.map(String.init))
        let encoded = try RequestBody.multipart([part]).encoded()
        let boundary = try #require(encoded.contentType.split(separator: "=").last)
        #expect(String(decoding: encoded.bytes, as: UTF8.self).hasSuffix("--\(boundary)--\r\n"))
        #expect(throws: EndpointError.self) { try MultipartFormPart.file("x", contentsOf: path + ".missing") }
    }

    @Test func explicitHeadersWinAndRawBodiesPassThrough() throws {
        let request = try client.request(
            for: Search(
                method: .put, headers: ["Accept": "application/vnd.pets+json", "Authorization": "Bearer t"],
                body: .raw([1, 2, 3], contentType: "application/octet-stream")))
        #expect(request.method == .put)
        #expect(request.headers.values(name: "Accept") == ["application/vnd.pets+json"])
        #expect(request.headers["Authorization"] == "Bearer t")
        #expect(request.headers["Content-Type"] == "application/octet-stream")
        #expect(request.body == [1, 2, 3])
    }

    @Test func defaultsFollowTheResponseType() throws {
        struct Banner: Endpoint {
            typealias Response = String
            var path: String { "/banner" }
        }
        #expect(!Banner().decoding.expectsJSON)
        struct Items: Endpoint {
            typealias Response = [String]
            var path: String { "/items" }
        }
        #expect(Items().decoding.expectsJSON)
        let banner = try client.request(for: Banner())
        #expect(banner.headers["Accept"] == nil)
        #expect(banner.method == .get)
        #expect(Banner().keyPath == nil && Banner().showsActivity && Banner().presentsErrors)
    }
}
