import ArgumentKit
import HTTPCore
import HTTPServerKit
import TLSKit

/// `petmock cert`: the local certificate authority's certificate (made when the folder has
/// none, with the server certificate `serve --https-port` uses) and how to trust it.
enum CertCommand {
    static let caDirectory = Argument<String?>.option(
        "ca-dir", value: "DIR",
        help: "The local certificate authority's folder, made on first use (default: ~/.petmock/ca).")

    static let spec = CommandSpec(
        name: "petmock cert",
        abstract: "Print the local CA's certificate path (made on first use) and how to trust it.",
        arguments: [caDirectory],
        discussion: """
            The first line is the path alone, for scripts: $(petmock cert | head -1).
            EXAMPLES:
              petmock cert
              xcrun simctl keychain booted add-root-cert "$(petmock cert | head -1)"
              curl --cacert "$(petmock cert | head -1)" https://localhost:8443/__admin/health
            """,
        exitCodes: "0 printed, 2 the folder cannot be read or written, 64 usage error")

    static let subcommand = CommandLineTool.Subcommand(verb: "cert", spec: spec, run: run)

    static func run(_ arguments: ParsedArguments) async throws -> ExitCode {
        let authority = LocalCertificateAuthority(
            directory: arguments[Self.caDirectory] ?? LocalCertificateAuthority.defaultDirectory)
        do {
            _ = try authority.serverTLS()
        } catch {
            writeError("petmock: error: \(TerminalText.escape(error.description))")
            return .couldNotRun
        }
        let path = authority.certificatePath
        writeOutput(
            """
            \(TerminalText.escape(path))
            Trust it in the booted iOS simulator (once per simulator):
              \(TerminalText.escape(authority.simulatorTrustCommand))
            Use it with curl:
              curl --cacert '\(TerminalText.escape(path))' https://localhost:PORT/__admin/health
            """)
        return .success
    }
}
