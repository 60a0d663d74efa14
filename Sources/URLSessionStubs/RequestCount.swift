/// How many requests a verification expects (WireMock's `exactly`, `moreThanOrExactly`,
/// `lessThanOrExactly`).
public enum RequestCount: Sendable, Hashable, CustomStringConvertible {
    /// Exactly this many.
    case exactly(Int)
    /// This many or more.
    case atLeast(Int)
    /// This many or fewer.
    case atMost(Int)

    /// None at all.
    public static let never = RequestCount.exactly(0)
    /// Exactly one.
    public static let once = RequestCount.exactly(1)

    /// Whether `count` requests satisfy it.
    public func accepts(_ count: Int) -> Bool {
        switch self {
        case .exactly(let expected): count == expected
        case .atLeast(let minimum): count >= minimum
        case .atMost(let maximum): count <= maximum
        }
    }

    public var description: String {
        switch self {
        case .exactly(let expected): "exactly \(expected)"
        case .atLeast(let minimum): "at least \(minimum)"
        case .atMost(let maximum): "at most \(maximum)"
        }
    }
}
