/// Who may use the `/__admin` API, which listens on the stub port.
public enum AdminAccess: Sendable, Hashable {
    /// Only clients on the loopback interface (the default).
    case loopbackOnly
    /// Any client presenting `Authorization: Bearer TOKEN`.
    case token(String)
    /// Anyone (for a container whose port only trusted tests reach).
    case open
}
