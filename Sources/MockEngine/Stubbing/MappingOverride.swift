import StubFormat

/// An admin change to a mapping that came from a file and was not written back to it (the
/// file is hand-written, without `"persistent": true`, or holds other mappings too). It is
/// kept in memory and applied again whenever the file is re-read for another reason (another
/// file or a body file changed), and dropped when its own file changes or on a mappings
/// reset, which both go back to what the file says.
enum MappingOverride: Sendable, Hashable {
    /// Deleted through the admin API.
    case removed
    /// Replaced through the admin API by this mapping.
    case replaced(StubMapping)
}
