import FuzzDriver
import XMLKit

/// The check libFuzzer runs on every input, read as an XPath expression, a newline, and an XML
/// document: parsing either fails with an `XMLError` or gives a tree that `equalToXml` finds
/// equal to itself (in both sibling-order modes, at distance 0); the expression either fails
/// to compile with an `XMLError` or evaluates (bounded by libxml2's operation limit) to a
/// result whose truth agrees with its values, the same whether or not nodes are serialised.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzXMLMatcher(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
    let expression = String(decoding: bytes[..<newline], as: UTF8.self)
    let document = Array(bytes[min(newline + 1, bytes.endIndex)...])
    let limits = XMLLimits(maxBytes: 1 << 16, maxNodes: 20_000, maxXPathOperations: 200_000)
    if let parsed = try? XMLDocument(parsing: document, limits: limits) {
        for ignoreOrder in [false, true] {
            do {
                let equality = try XMLEquality(
                    expected: parsed, options: XMLEqualityOptions(ignoreOrderOfSameNode: ignoreOrder))
                let difference = equality.firstDifference(parsed)
                precondition(
                    difference == nil, "a document differs from itself: \(difference.map(\.description) ?? "")")
                precondition(equality.distance(parsed) == 0, "a document is at a distance from itself")
            } catch {
                preconditionFailure("without placeholders, preparing a comparison cannot fail: \(error)")
            }
        }
    }
    guard let xpath = try? XPathExpression(expression, limits: limits) else { return 0 }
    let serialized = try? xpath.evaluate(document, limits: limits)
    let counted = try? xpath.evaluate(document, limits: limits, serializingNodes: false)
    precondition((serialized == nil) == (counted == nil), "serialising nodes changed whether evaluation succeeds")
    if let serialized, let counted {
        precondition(serialized.isTruthy == counted.isTruthy, "serialising nodes changed the result's truth")
        precondition(serialized.values.count == counted.values.count, "serialising nodes changed the node count")
        if case .nodes(let nodes) = serialized { precondition(serialized.isTruthy == !nodes.isEmpty) }
    }
    return 0
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

exit(fuzz_driver_run(CommandLine.argc, CommandLine.unsafeArgv, fuzzXMLMatcher))
