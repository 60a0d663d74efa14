import HTTPHandlerKit
import JSONKit
import MockEngine
import StubFormat

extension AdminRouter {
    /// `POST /__admin/near-misses/request-pattern`: `{"nearMisses": [{"request": ...,
    /// "requestPattern": ..., "matchResult": {"distance": ...}}]}`, closest first.
    func nearMissesOfPattern(_ body: [UInt8]) -> HTTPResponse {
        switch Self.requestPattern(body) {
        case .failure(let failure): return failure.response
        case .success(let pattern):
            do throws(AdminError) {
                let misses = try admin.nearMisses(forPattern: pattern).map { miss -> JSONValue in
                    [
                        "request": AdminJSON.request(miss.request), "requestPattern": pattern.json,
                        "matchResult": ["distance": .double(UnmatchedReport.rounded(miss.distance))],
                    ]
                }
                return Self.json(["nearMisses": .array(misses)])
            } catch {
                return Self.failure(error)
            }
        }
    }
}

/// `POST /__admin/requests/remove` (a request pattern) and `remove-by-metadata` (a matcher
/// over the answering mapping's metadata): `{"serveEvents": [...]}`, what was removed.
extension AdminRouter {
    func removeRequests(_ body: [UInt8], byMetadata: Bool) -> HTTPResponse {
        switch Self.parse(body) {
        case .failure(let failure): return failure.response
        case .success(let json):
            var decoder = MappingDecoder(file: "")
            do throws(AdminError) {
                let removed: [LoggedRequest]
                if byMetadata {
                    guard let matcher = decoder.matcher(json, at: .root) else {
                        throw .invalidMapping(decoder.problems.filter(\.isError))
                    }
                    removed = try admin.removeRequests(forMappingsWithMetadataMatching: matcher)
                } else {
                    guard let pattern = decoder.decodeRequest(json, at: .root) else {
                        throw .invalidMapping(decoder.problems.filter(\.isError))
                    }
                    removed = try admin.removeRequests(matching: pattern)
                }
                return Self.json(["serveEvents": .array(removed.map(AdminJSON.serveEvent))])
            } catch {
                return Self.failure(error)
            }
        }
    }

    /// The request pattern a body holds (WireMock's request-pattern JSON): a 400 for a body
    /// that is not JSON, a 422 listing the problems of a pattern that does not read.
    static func requestPattern(_ body: [UInt8]) -> Result<RequestPattern, ParseFailure> {
        switch parse(body) {
        case .failure(let failure): return .failure(failure)
        case .success(let json):
            var decoder = MappingDecoder(file: "")
            guard let pattern = decoder.decodeRequest(json, at: .root) else {
                return .failure(
                    ParseFailure(
                        response: Self.json(
                            AdminJSON.errors("Invalid request pattern", problems: decoder.problems), status: 422)))
            }
            return .success(pattern)
        }
    }
}
