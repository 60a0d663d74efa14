import Testing
import XMLKit

/// libxml2 is initialised once and every parse and evaluation has its own context, so event
/// loops on several threads can match XML at once.
@Suite struct XMLConcurrencyTests {
    @Test func parsesAndEvaluatesFromManyTasksAtOnce() async throws {
        let xpath = try XPathExpression("//item[@id = '7']/text()")
        let equality = try XMLEquality(expected: XMLDocument(parsing: "<list><item id='7'>seven</item></list>"))
        let results = await withTaskGroup(of: Bool.self) { group in
            for task in 0..<16 {
                group.addTask {
                    var good = true
                    for round in 0..<50 {
                        let id = (task + round) % 2 == 0 ? "7" : "8"
                        let body = Array("<list><item id='\(id)'>seven</item></list>".utf8)
                        let values = (try? xpath.evaluate(body).values) ?? ["error"]
                        let equal = (try? XMLDocument(parsing: body)).map { equality.firstDifference($0) == nil }
                        good = good && values == (id == "7" ? ["seven"] : []) && equal == (id == "7")
                        // A malformed body in between leaves no state behind for the next one.
                        good = good && (try? XMLDocument(parsing: Array("<list>".utf8))) == nil
                    }
                    return good
                }
            }
            var all: [Bool] = []
            for await result in group { all.append(result) }
            return all
        }
        #expect(results.count == 16 && results.allSatisfy { $0 })
    }
}
