import Foundation
import HTTPCore
import HTTPHandlerKit
import HTTPServerKit
import Testing
import URLSessionStubs

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A request no live host owns fails; no other host answers it.
@Suite struct UnknownSessionTests {
    @Test func aSessionMadeFromAHostsConfigurationIsAnsweredByThatHost() async throws {
        let host = StubURLSessionHost(handler: HTTPClosureHandler { _ in .response(HTTPResponse(text: "mine")) })
        let own = URLSession(configuration: host.configuration)
        defer { own.finishTasksAndInvalidate() }
        #expect(try await fetch(own, "http://api.example/x").text == "mine")
    }

    @Test func aReleasedHostsSessionFailsAndNoOtherHostAnswers() async throws {
        let other = StubURLSessionHost(handler: HTTPClosureHandler { _ in .response(HTTPResponse(text: "other")) })
        var host: StubURLSessionHost? = StubURLSessionHost(
            handler: HTTPClosureHandler { _ in .response(HTTPResponse(text: "gone")) })
        let own = URLSession(configuration: try #require(host?.configuration))
        defer { own.finishTasksAndInvalidate() }
        #expect(try await fetch(own, "http://api.example/x").text == "gone")
        host = nil
        let fetched = try await fetch(own, "http://api.example/x")
        #expect(fetched.error?.code == .resourceUnavailable)
        #expect(fetched.error?.localizedDescription.contains("was released") == true)
        #expect(fetched.response == nil)
        #expect(try await fetch(other.session, "http://api.example/x").text == "other")
    }

    @Test func aConfigurationOfYourOwnListingAHostsProtocolClassIsAnsweredByThatHost() async throws {
        let host = StubURLSessionHost(handler: HTTPClosureHandler { _ in .response(HTTPResponse(text: "mine")) })
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [host.protocolClass] + (configuration.protocolClasses ?? [])
        let own = URLSession(configuration: configuration)
        defer { own.finishTasksAndInvalidate() }
        #expect(try await fetch(own, "http://api.example/x").text == "mine")
    }

    @Test func aSessionListingStubURLProtocolItselfFails() async throws {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [StubURLProtocol.self]
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        let fetched = try await fetch(session, "http://api.example/x")
        #expect(fetched.error?.code == .resourceUnavailable)
        #expect(fetched.error?.localizedDescription.contains("belongs to no StubURLSessionHost") == true)
    }
}
