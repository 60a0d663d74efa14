import JSONKit
import MockEngine
import StubServerKit
import TestSupport
import Testing

/// One request sent to petmock and the status WireMock answers it with.
struct Probe: Sendable {
    let method: String
    let target: String
    var headers: [(String, String)] = []
    var body: String = ""
    let status: Int
    /// Text the answer's body must hold, when the WireMock test checks the body.
    var bodyContains: String? = nil
    /// JSONPaths into the answer and the compact JSON of what each selects (all of it, in
    /// order, in an array: `"$.mappings[*].request.url": #"["/b","/a"]"#`).
    var json: [String: String] = [:]

    init(
        _ method: String, _ target: String, headers: [(String, String)] = [], body: String = "", status: Int,
        bodyContains: String? = nil, json: [String: String] = [:]
    ) {
        self.method = method
        self.target = target
        self.headers = headers
        self.body = body
        self.status = status
        self.bodyContains = bodyContains
        self.json = json
    }

    /// What `path` selects in `text`, as compact JSON with sorted keys (an array of the
    /// selections); a path ending `.length()` gives the length of each selected array.
    static func select(_ path: String, in text: String) -> String {
        let length = path.hasSuffix(".length()")
        let expression = length ? String(path.dropLast(".length()".count)) : path
        guard let value = try? JSONValue(parsing: text) else { return "<not JSON>" }
        guard let parsed = try? JSONPath(expression) else { return "<bad JSONPath \(expression)>" }
        var selected = parsed.evaluate(on: value)
        if length { selected = selected.map { .int(Int64($0.arrayValue?.count ?? -1)) } }
        return String(decoding: JSONWriter(options: .sortedKeys).bytes(.array(selected)), as: UTF8.self)
    }
}

/// A WireMock acceptance test carried over as data: the mappings it stubs (WireMock JSON, as
/// its Java DSL would post them to `/__admin/mappings`), then requests and their statuses.
/// `deliberate` names why petmock answers otherwise on purpose; such a case asserts petmock's
/// answer (listed in docs/wiremock-compatibility.md, "Deliberate differences").
struct AcceptanceCase: Sendable, CustomStringConvertible {
    let source: String
    let mappings: [String]
    let probes: [Probe]
    var deliberate: String? = nil
    /// Files of a stub folder the server loads first (paths under the folder, and their text).
    var files: [String: String] = [:]
    /// Whether the server serves a stub folder even when `files` is empty.
    var onDisk = false

    var description: String { source }

    init(
        _ source: String, _ mappings: [String], _ probes: [Probe], deliberate: String? = nil,
        files: [String: String] = [:], onDisk: Bool = false
    ) {
        self.source = source
        self.mappings = mappings
        self.probes = probes
        self.deliberate = deliberate
        self.files = files
        self.onDisk = onDisk
    }

    /// Posts the mappings through the admin API (each must be created) and checks each probe.
    func run() throws {
        let folder = files.isEmpty && !onDisk ? nil : try TemporaryStubs()
        for (path, text) in files.sorted(by: { $0.key < $1.key }) { folder?.write(path, text) }
        let server = try makeServer(stubs: folder?.root)
        for mapping in mappings {
            let created = try server.answer("POST", "/__admin/mappings", body: mapping)
            #expect(created.status == 201, "\(source): \(mapping) -> \(created.status) \(created.text)")
        }
        for probe in probes {
            let answer = try server.answer(probe.method, probe.target, headers: probe.headers, body: probe.body)
            #expect(answer.status == probe.status, "\(source): \(probe.method) \(probe.target) -> \(answer.status)")
            if let text = probe.bodyContains {
                #expect(answer.text.contains(text), "\(source): body \(answer.text)")
            }
            for (path, expected) in probe.json.sorted(by: { $0.key < $1.key }) {
                let found = Probe.select(path, in: answer.text)
                #expect(found == expected, "\(source): \(probe.target) \(path): found \(found) in \(answer.text)")
            }
        }
    }
}
