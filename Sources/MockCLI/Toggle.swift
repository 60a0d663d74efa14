/// A setting that is `on` or `off` on the command line (`--validate-requests off`).
enum Toggle: String, CaseIterable, Sendable {
    case on
    case off
}
