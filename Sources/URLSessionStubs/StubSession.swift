import APISchema
import AdminAPI
import Foundation
import HTTPCore
import JSONKit
import MockEngine
import OpenAPIMock
import Platform
import StubFormat

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// In-process stubs for a URLSession, with petmock's whole engine behind them: a stub folder
/// or mappings built in Swift, matching, priorities, scenarios, file and generated variants,
/// templating, faults, the journal and its near-miss report, exactly as `petmock serve`
/// answers, with no socket, no port and no thread of its own.
///
/// Each session has its own engine: its own variant, scenario state and journal. Tests that
/// each make one run in parallel without seeing each other's stubs or requests.
///
/// ```swift
/// @Test(arguments: ["missing:name", "type:id=string", "null:owner"])
/// func survivesDrift(variant: String) async throws {
///     let stubs = try StubSession(stubsDirectory: "Stubs", variant: variant)
///     let client = RepoClient(session: stubs.session)            // the app's own networking
///     _ = try? await client.repositories()
///     try stubs.verify(.once, RequestPattern(method: .get, url: .urlPath("/api/repos")))
/// }
/// ```
///
/// Proxy stubs (`proxyBaseUrl`) and `proxyUnmatched` reach the network through a real
/// URLSession. Delays are recorded, not waited, unless ``StubSessionOptions/waitsForDelays``.
public final class StubSession: Sendable {
    /// petmock's engine, answering this session's requests.
    public let handler: StubHandler
    /// The URLProtocol host the session runs on.
    public let host: StubURLSessionHost

    /// Serves a stub folder (`mappings/`, `__files/`); problems are in ``loadProblems``, and
    /// with `configuration.strict` any problem is thrown.
    public convenience init(
        stubsDirectory: String, variant: String? = nil,
        configuration: StubHandlerConfiguration = StubHandlerConfiguration(),
        options: StubSessionOptions = StubSessionOptions()
    ) throws(StubSetupError) {
        try self.init(
            stubsDirectory: stubsDirectory, mappings: [], variant: variant, configuration: configuration,
            options: options)
    }

    /// Serves the stub folder `subdirectory` of a bundle: the test target's own resources,
    /// which reach it wherever the tests run (Xcode, a simulator, `swift test`). In the test
    /// target's `Package.swift` entry: `resources: [.copy("Stubs")]`, then
    /// `StubSession(bundle: .module)`. A bundle without that folder is
    /// `StubLoadError.rootNotFound`, naming where it was looked for.
    public convenience init(
        bundle: Bundle, subdirectory: String = "Stubs", variant: String? = nil,
        configuration: StubHandlerConfiguration = StubHandlerConfiguration(),
        options: StubSessionOptions = StubSessionOptions()
    ) throws(StubSetupError) {
        guard let folder = bundle.url(forResource: subdirectory, withExtension: nil) else {
            let base = bundle.resourceURL?.path ?? bundle.bundlePath
            throw .load(.rootNotFound(base + "/" + subdirectory))
        }
        try self.init(
            stubsDirectory: folder.path, mappings: [], variant: variant, configuration: configuration,
            options: options)
    }

    /// Serves a stub folder given relative to a source file, the calling test's by default
    /// (`#filePath`), so it is found whatever the working directory: `swift test` from
    /// anywhere, Xcode, a macOS or simulator test run (which can read the source tree; a test
    /// on a device cannot, and takes its stubs from its bundle). An absolute `stubsDirectory`
    /// is used as it is.
    public convenience init(
        stubsDirectory: String, relativeTo filePath: String, variant: String? = nil,
        configuration: StubHandlerConfiguration = StubHandlerConfiguration(),
        options: StubSessionOptions = StubSessionOptions()
    ) throws(StubSetupError) {
        try self.init(
            stubsDirectory: Self.path(stubsDirectory, besideFile: filePath), mappings: [], variant: variant,
            configuration: configuration, options: options)
    }

    /// `directory` resolved against the folder holding `file`; an absolute one as it is.
    package static func path(_ directory: String, besideFile file: String) -> String {
        guard !directory.hasPrefix("/") else { return directory }
        let folder = file.lastIndex(of: "/").map { String(file[..<$0]) } ?? "."
        return folder + "/" + directory
    }

    /// Answers from an OpenAPI document in JSON (3.0 or 3.1), as `petmock serve --openapi`
    /// does: its examples (`Prefer: example=NAME`), else bodies generated from its schemas;
    /// each request checked against its operation (a problem+json 400, 415 or 422 listing
    /// the violations) unless `validatesRequests` is false, and before that against its
    /// `security` (a 401 with `WWW-Authenticate` when the credentials it asks for are missing or
    /// malformed) unless `enforcesSecurity` is false; every drift variant, as for stubs.
    /// With `stateful`, the document's collections keep what the session's requests create,
    /// replace, patch and delete, in a store of the session's own (no other session sees it).
    /// With `dynamic`, every answer with a schema is generated per request (`--dynamic`); with
    /// `strictResponses`, an example that breaks its response schema is a 500 problem (`--errors`).
    /// It is mounted at `basePath`, else at its first `servers` URL's path. Stubs of a folder,
    /// when given, answer first. A YAML document is refused with the command that converts it.
    public convenience init(
        openAPIDocument path: String, basePath: String? = nil, validatesRequests: Bool = true,
        enforcesSecurity: Bool = true, stateful: Bool = false, dynamic: Bool = false, strictResponses: Bool = false,
        stubsDirectory: String? = nil,
        variant: String? = nil, configuration: StubHandlerConfiguration = StubHandlerConfiguration(),
        options: StubSessionOptions = StubSessionOptions()
    ) throws(StubSetupError) {
        let contract = try Self.readDocument(path)
        var configuration = configuration
        configuration.fallback = OpenAPIResponder(
            contract: contract, basePath: basePath, validatesRequests: validatesRequests,
            enforcesSecurity: enforcesSecurity, challengeRealm: Self.challengeRealm, stateful: stateful,
            dynamic: dynamic, strictResponses: strictResponses)
        try self.init(
            stubsDirectory: stubsDirectory, mappings: [], variant: variant, configuration: configuration,
            options: options)
    }

    /// The realm the document's 401 challenges name: none where FoundationNetworking loads
    /// URLs, which takes a 401 with a Basic challenge that has a realm into its authentication
    /// handling, where a task with no credential to offer never completes.
    #if canImport(FoundationNetworking)
    package static let challengeRealm: String? = nil
    #else
    package static let challengeRealm: String? = SecurityCheck.realm
    #endif

    /// Reads an OpenAPI document in JSON; YAML (as `OpenAPIReader.isYAML` tells it) is refused.
    package static func readDocument(_ path: String) throws(StubSetupError) -> Contract {
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.read(path)
        } catch {
            throw .document(.io(path: path, message: FileProblem.unreadable(path)))
        }
        if OpenAPIReader.isYAML(bytes, source: path) { throw .documentIsYAML(path: path) }
        do {
            return try OpenAPIReader().read(json: bytes, source: path)
        } catch {
            throw .document(error)
        }
    }

    /// Serves mappings built in Swift; an invalid one is thrown.
    public convenience init(
        mappings: [StubMapping], variant: String? = nil,
        configuration: StubHandlerConfiguration = StubHandlerConfiguration(),
        options: StubSessionOptions = StubSessionOptions()
    ) throws(StubSetupError) {
        try self.init(
            stubsDirectory: nil, mappings: mappings, variant: variant, configuration: configuration, options: options)
    }

    /// Serves a stub folder (if given) plus mappings built in Swift. `variant`, when given,
    /// replaces the configuration's. Upstream requests (proxy stubs, `proxyUnmatched`) go
    /// through `upstreamSession`, a real one by default.
    public init(
        stubsDirectory: String?, mappings: [StubMapping], variant: String? = nil,
        configuration: StubHandlerConfiguration = StubHandlerConfiguration(),
        options: StubSessionOptions = StubSessionOptions(), upstreamSession: URLSession? = nil
    ) throws(StubSetupError) {
        var configuration = configuration
        if let variant { configuration.variant = variant }
        handler = try StubHandler(
            stubsDirectory: stubsDirectory, mappings: mappings, configuration: configuration,
            upstream: .urlSession(upstreamSession))
        host = StubURLSessionHost(handler: handler, options: options)
    }

    /// The session to give the code under test.
    public var session: URLSession { host.session }

    /// A new configuration whose sessions this engine answers, for networking layers that make
    /// their own session (Alamofire's `Session(configuration:)`, a session with a delegate).
    public var configuration: URLSessionConfiguration { host.configuration }

    /// The engine's administration: mappings, scenarios, the journal, global settings.
    public var admin: Admin { handler.admin }

    /// The problems found when loading the stub folder (bad files are left out).
    public var loadProblems: [StubProblem] { handler.loadProblems }

    /// The delays replies asked for, in order, whether or not they were waited.
    public var recordedDelays: [Duration] { host.recordedDelays }

    /// Sets the variant for every request that names none (a file variant, or a generated one
    /// such as `missing:name`); nil goes back to the base stubs.
    public func setVariant(_ name: String?) throws(VariantError) {
        try admin.setVariant(name)
    }

    /// Every request this session received, oldest first (the admin API's journal,
    /// ``Admin/requests()``, is newest first, as WireMock's).
    public var requests: [LoggedRequest] { admin.requests().reversed() }

    /// The requests that match `pattern`, oldest first.
    public func requests(matching pattern: RequestPattern) throws(AdminError) -> [LoggedRequest] {
        try admin.findRequests(matching: pattern)
    }

    /// Checks that `count` requests matching `pattern` were made (WireMock's `verify`), and that
    /// petmock refused none (a variant no stub has, a status no stub answers with: the app got
    /// a 400 the test did not ask for); the error lists what was requested, the refusals and
    /// the near-miss report of the unmatched requests.
    ///
    /// ```swift
    /// try stubs.verify(.exactly(2), RequestPattern(method: .post, url: .url("/api/items")))
    /// ```
    public func verify(_ count: RequestCount, _ pattern: RequestPattern) throws(StubVerificationError) {
        let expectation = "\(count) request\(count == .exactly(1) ? "" : "s") matching \(Self.describe(pattern))"
        let matched: Int
        do {
            matched = try admin.countRequests(matching: pattern)
        } catch {
            throw StubVerificationError(
                expectation: expectation, matched: 0, received: [], nearMisses: "", invalidPattern: "\(error)")
        }
        let refusals = requestProblems
        guard !count.accepts(matched) || !refusals.isEmpty else { return }
        throw StubVerificationError(
            expectation: expectation, matched: matched, received: requests.map { "\($0.method) \($0.url)" },
            nearMisses: admin.unmatchedReport(), invalidPattern: nil,
            refused: refusals.map(Self.describe), countMet: count.accepts(matched))
    }

    /// Checks that at least one request matching `pattern` was made.
    public func verify(_ pattern: RequestPattern) throws(StubVerificationError) {
        try verify(.atLeast(1), pattern)
    }

    /// The requests petmock refused since the journal was last emptied, each problem once with
    /// the first request that had it (``Admin/requestProblems()``); ``verify(_:_:)`` fails while
    /// there are any.
    public var requestProblems: [RequestProblemCount] { admin.requestProblems().problems }

    /// `GET /api/pets: Unknown variant 'nope': ... (3 requests)`, for messages.
    static func describe(_ refusal: RequestProblemCount) -> String {
        let times = refusal.count == 1 ? "" : " (\(refusal.count) requests)"
        return "\(refusal.request): \(refusal.problem.message)\(times)"
    }

    /// The near-miss report of every request no stub answered (empty when all matched), for a
    /// test to show when something went unanswered.
    public func unmatchedReport() -> String {
        admin.unmatchedReport()
    }

    /// `GET urlPath /api/items`, for messages.
    static func describe(_ pattern: RequestPattern) -> String {
        let method = pattern.method?.rawValue ?? pattern.methods?.description ?? "ANY"
        guard let url = pattern.url else { return "\(method) any URL" }
        return "\(method) \(url)"
    }
}
