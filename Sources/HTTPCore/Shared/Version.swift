/// petkit's version, the one source of it: every tool prints it with `--version`, and petmock's
/// `/__admin/version` and `/__admin/health` report it. CHANGELOG.md names each version's changes.
public let petkitVersion = "0.9.0"
