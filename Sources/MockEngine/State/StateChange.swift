import JSONKit
import LinearRegex

/// One change to the state store, rendered from a listener for one request.
enum StateChange: Sendable {
    /// Writes properties into a context, made if it does not exist (one update).
    case write(context: String, properties: [(String, String)])
    /// Adds an entry to a context's list, at the front or the end (one update).
    case add(context: String, entry: JSONObject, first: Bool)
    /// Deletes these contexts.
    case deleteContexts([String])
    /// Deletes every context whose name matches.
    case deleteMatching(LinearTimeRegex)
    /// Deletes one entry of a context's list (one update when one is deleted).
    case deleteEntry(context: String, ListEntry)

    /// Which entry of a list a deletion removes.
    enum ListEntry: Sendable {
        case first, last
        case index(Int)
        case firstWhere(property: String, equals: String)
    }
}
