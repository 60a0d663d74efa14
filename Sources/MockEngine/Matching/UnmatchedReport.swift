import HTTPCore
import HTTPHandlerKit
import JSONKit
import StubFormat

/// The 404 an unmatched request gets: "Request was not matched", the closest stubs, and per
/// criterion what matched and what differed. Text by default, JSON when the client asks.
package struct UnmatchedReport {
    let request: MatchableRequest
    let nearMisses: [NearMiss]
    let variant: String?
    /// Mappings not loaded for their errors that would have matched the request.
    var refused: [RefusedStub] = []
    /// With no stub loaded, the other mappings and mapping files refused at load: why none is.
    var otherRefused: [RefusedStub] = []
    /// What the fallback source (an OpenAPI document) says of itself: where it is mounted, its
    /// closest operations.
    var fallback: FallbackSummary?

    /// The response, as text or JSON.
    func response(json: Bool) -> HTTPResponse {
        if json {
            return HTTPResponse(
                status: .notFound, headers: ["Content-Type": "application/json"],
                body: jsonValue.serializedBytes(.pretty))
        }
        return HTTPResponse(status: .notFound, text: text)
    }

    var text: String {
        var lines = ["Request was not matched", "=======================", "", "\(request.method) \(request.target)"]
        for field in request.headers where !field.name.equalsIgnoringASCIICase("Host") {
            lines.append("\(field.name): \(field.value)")
        }
        if !request.body.isEmpty { lines += ["", StringMatcher.excerpt(request.bodyText)] }
        if let variant { lines.append("(variant '\(variant)' active)") }
        lines.append("")
        if let fallback {
            lines.append("The document is mounted at '\(fallback.mountPoint)'; '\(request.path)' is outside it")
            if !fallback.closestOperations.isEmpty {
                lines.append("Closest operations: " + fallback.closestOperations.joined(separator: ", "))
            }
            lines.append("")
        }
        for stub in refused {
            lines.append("Not loaded: \(stub.label) would match this request, but it was refused at load: \(stub.why)")
        }
        if !refused.isEmpty { lines.append("") }
        if nearMisses.isEmpty && refused.isEmpty { lines.append("No stubs are loaded.") }
        for stub in otherRefused.prefix(Self.listedRefusals) {
            lines.append("Refused at load: \(stub.label): \(stub.why)")
        }
        if otherRefused.count > Self.listedRefusals {
            lines.append("And \(otherRefused.count - Self.listedRefusals) more refused ('petmock validate' lists them)")
        }
        if !otherRefused.isEmpty { lines.append("") }
        for (position, miss) in nearMisses.enumerated() {
            let title = position == 0 ? "Closest stub" : "Next closest"
            lines.append("\(title): \(miss.label), distance \(Self.format(miss.distance))")
            let width = max(8, miss.criteria.map(\.name.count).max() ?? 0)
            for criterion in miss.criteria {
                let label = criterion.name.padding(to: width)
                if criterion.matched {
                    lines.append("  \(label)  matched  \(criterion.expected)")
                } else {
                    lines.append("  \(label)  DIFFERS  expected \(criterion.expected), found \(criterion.actual)")
                }
            }
            lines.append("")
        }
        return lines.joined(separator: "\n")
    }

    var jsonValue: JSONValue {
        var object: JSONObject = [
            "message": "Request was not matched",
            "request": ["method": .string(request.method.rawValue), "url": .string(String(request.target))],
        ]
        if let variant { object["variant"] = .string(variant) }
        if let fallback {
            object["document"] = [
                "mountPoint": .string(fallback.mountPoint),
                "closestOperations": .array(fallback.closestOperations.map(JSONValue.string)),
            ]
        }
        object["closestStubs"] = .array(nearMisses.map(Self.json))
        if !refused.isEmpty || !otherRefused.isEmpty {
            let matching = refused.map { Self.json($0, matchesRequest: true) }
            let others = otherRefused.prefix(Self.listedRefusals).map { Self.json($0, matchesRequest: false) }
            object["notLoaded"] = .array(matching + others)
        }
        return .object(object)
    }

    /// How many refused mappings the report lists when none of them matches.
    static let listedRefusals = 10

    /// A refused mapping: its file, label, whether it would match the request and why it was refused.
    static func json(_ stub: RefusedStub, matchesRequest: Bool) -> JSONValue {
        [
            "file": .string(stub.file), "label": .string(stub.label), "matchesRequest": .bool(matchesRequest),
            "reasons": .array(
                stub.reasons.map { problem in ["path": .string(problem.path), "message": .string(problem.message)] }),
        ]
    }

    package static func json(_ miss: NearMiss) -> JSONValue {
        var object = JSONObject()
        object["id"] = .string(miss.mapping.id)
        if let name = miss.mapping.name { object["name"] = .string(name) }
        if let file = miss.file { object["file"] = .string(file) }
        object["label"] = .string(miss.label)
        object["distance"] = .double(rounded(miss.distance))
        object["criteria"] = .array(
            miss.criteria.map { criterion in
                [
                    "criterion": .string(criterion.name), "matched": .bool(criterion.matched),
                    "expected": .string(criterion.expected), "actual": .string(criterion.actual),
                ]
            })
        return .object(object)
    }

    package static func rounded(_ value: Double) -> Double {
        (value * 1000).rounded() / 1000
    }

    static func format(_ value: Double) -> String {
        let thousandths = Int((value * 1000).rounded())
        let fraction = String(thousandths % 1000)
        return "\(thousandths / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }
}

extension String {
    func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
