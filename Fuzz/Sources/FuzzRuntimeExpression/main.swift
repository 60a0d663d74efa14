import APISchema
import FuzzDriver
import HTTPCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One exchange every template is evaluated in.
let exchange = RuntimeExchange(
    method: "POST", url: "http://localhost/subscribe?url=http%3A%2F%2Fa",
    request: RuntimeExchange.Part(
        headers: ["X-Callback": "http://127.0.0.1:1/x", "Accept": "application/json"],
        query: [("url", "http://a"), ("id", "7")], pathValues: ["id": "7"],
        body: Array(#"{"callbackUrl": "http://b/", "a/b": {"~": [1, "two", null]}, "n": 1.5}"#.utf8)),
    statusCode: 201,
    response: RuntimeExchange.Part(headers: ["Server": "petmock"], body: Array(#"{"status": "ok"}"#.utf8)))

/// The check libFuzzer runs on every input, read as UTF-8 (a callback's key as written): it
/// either fails with an error whose offset is inside the text, or gives a template whose text
/// pieces hold no brace, which written back (each expression by its `description`) reads as
/// the same pieces, and which evaluates in the exchange to a value or an error naming what is
/// missing, never a crash or a hang.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRuntimeExpression(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size <= 4096 else { return 0 }
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let template: RuntimeExpressionTemplate
    do {
        template = try RuntimeExpressionTemplate(text)
    } catch {
        let offset = error.offset ?? -1
        precondition(offset >= 0 && offset <= text.unicodeScalars.count, "an error outside the text: \(error)")
        return 0
    }
    var written = ""
    for piece in template.pieces {
        switch piece {
        case .text(let literal):
            precondition(!literal.unicodeScalars.contains { $0 == "{" || $0 == "}" }, "a brace in a text piece")
            written += literal
        case .expression(let expression):
            written += text.hasPrefix("$") ? expression.description : "{\(expression.description)}"
        }
    }
    do {
        let again = try RuntimeExpressionTemplate(written)
        precondition(again.pieces == template.pieces, "'\(written)' reads as other pieces")
    } catch {
        preconditionFailure("'\(written)', written back, does not read: \(error)")
    }
    do {
        _ = try template.evaluate(in: exchange)
    } catch {
        precondition(error.offset == nil && !error.message.isEmpty, "an evaluation error with no reason")
    }
    return 0
}

// SwiftPM makes this file's top-level code the program's entry point (libFuzzer's `main` is
// bypassed), so it starts the driver itself.
exit(fuzz_driver_run(CommandLine.argc, CommandLine.unsafeArgv, fuzzRuntimeExpression))
