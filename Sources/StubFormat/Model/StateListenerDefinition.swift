import JSONKit

/// A change to the state extension's contexts made once a stub answered (the
/// `wiremock-state-extension`'s `recordState` and `deleteState` serve event listeners). Every
/// text is a Handlebars template, rendered with the request as `request` and the answer as
/// `response` (`body`, `headers`).
///
/// ```swift
/// StateListenerDefinition(
///     action: .record, context: .named("{{jsonPath response.body '$.id'}}"),
///     state: [StateProperty(name: "title", value: "{{jsonPath request.body '$.title'}}")])
/// ```
public struct StateListenerDefinition: Sendable, Hashable {
    /// `recordState` or `deleteState`.
    public enum Action: String, Sendable, Hashable {
        /// Writes properties, or adds an entry to the context's list.
        case record = "recordState"
        /// Deletes contexts, or one entry of a context's list.
        case delete = "deleteState"
    }

    /// Which contexts the listener changes.
    public enum ContextSelection: Sendable, Hashable {
        /// One context (`context`).
        case named(String)
        /// Several contexts (`contexts`, `deleteState` only).
        case names([String])
        /// Every context whose name matches a regular expression (`contextsMatching`,
        /// `deleteState` only).
        case matching(String)
    }

    /// Where `recordState` adds an entry to the context's list.
    public enum ListAddition: Sendable, Hashable {
        /// At the front (`addFirst`).
        case first([StateProperty])
        /// At the end (`addLast`).
        case last([StateProperty])
    }

    /// Which entry `deleteState` removes from the context's list.
    public enum ListDeletion: Sendable, Hashable {
        /// The first (`deleteFirst: true`).
        case first
        /// The last (`deleteLast: true`).
        case last
        /// The entry at an index, a template of an integer; -1 is the last (`deleteIndex`).
        case index(String)
        /// The first entry whose property has the value (`deleteWhere`), both templates.
        case whereProperty(String, equals: String)
    }

    /// What the listener does.
    public var action: Action
    /// The contexts it changes.
    public var context: ContextSelection
    /// The properties `recordState` writes (`state`), each value a template.
    public var state: [StateProperty]?
    /// The entry `recordState` adds to the list (`list`).
    public var listAddition: ListAddition?
    /// The entry `deleteState` removes from the list (`list`); nil deletes the whole context.
    public var listDeletion: ListDeletion?
    /// The listener's `requestPhases`, as written (kept for round trips).
    public var requestPhases: [String]?
    /// Where the listener was read in `serveEventListeners` (nil when built in Swift), so
    /// that a problem found when it is compiled names its place; not part of its value.
    package var sourceIndex: Int?

    /// Creates a listener.
    public init(
        action: Action, context: ContextSelection, state: [StateProperty]? = nil, listAddition: ListAddition? = nil,
        listDeletion: ListDeletion? = nil, requestPhases: [String]? = nil
    ) {
        self.action = action
        self.context = context
        self.state = state
        self.listAddition = listAddition
        self.listDeletion = listDeletion
        self.requestPhases = requestPhases
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.action == rhs.action && lhs.context == rhs.context && lhs.state == rhs.state
            && lhs.listAddition == rhs.listAddition && lhs.listDeletion == rhs.listDeletion
            && lhs.requestPhases == rhs.requestPhases
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(action)
        hasher.combine(context)
        hasher.combine(state)
        hasher.combine(listAddition)
        hasher.combine(listDeletion)
        hasher.combine(requestPhases)
    }
}

/// One property of a recorded state: its name and the template of its value.
public struct StateProperty: Sendable, Hashable {
    /// The property's name.
    public var name: String
    /// The template its value is rendered from.
    public var value: String

    /// Creates a property.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// The state extension's `customMatcher` (`"name": "state-matcher"`): whether a context
/// exists, and what its properties, update count and list size are. Every value is a
/// template rendered with the request as `request`.
public struct StateMatcherDefinition: Sendable, Hashable {
    /// The name WireMock's `customMatcher` gives it.
    public static let matcherName = "state-matcher"

    /// A count comparison on the context.
    public struct Count: Sendable, Hashable {
        /// What is counted: `updateCount` or `listSize`.
        public enum Subject: String, Sendable, Hashable {
            case updateCount, listSize
        }

        /// How the count is compared.
        public enum Comparison: String, Sendable, Hashable {
            case equalTo = "EqualTo"
            case lessThan = "LessThan"
            case moreThan = "MoreThan"
        }

        /// What is counted.
        public var subject: Subject
        /// How it is compared.
        public var comparison: Comparison
        /// The template of the number compared with.
        public var value: String

        /// The parameter's name (`updateCountEqualTo`).
        public var parameterName: String { subject.rawValue + comparison.rawValue }

        /// Creates a comparison.
        public init(_ subject: Subject, _ comparison: Comparison, _ value: String) {
            self.subject = subject
            self.comparison = comparison
            self.value = value
        }
    }

    /// The context that must exist (`hasContext`), or must not (`hasNotContext`).
    public var context: String
    /// Whether the context must be absent (`hasNotContext`).
    public var absent: Bool
    /// A property the context must have (`hasProperty`).
    public var hasProperty: String?
    /// A property the context must not have (`hasNotProperty`).
    public var hasNotProperty: String?
    /// The count comparisons, all of which must hold.
    public var counts: [Count]

    /// Creates a matcher.
    public init(
        context: String, absent: Bool = false, hasProperty: String? = nil, hasNotProperty: String? = nil,
        counts: [Count] = []
    ) {
        self.context = context
        self.absent = absent
        self.hasProperty = hasProperty
        self.hasNotProperty = hasNotProperty
        self.counts = counts
    }
}
