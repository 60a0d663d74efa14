// Claims URLSession.shared in a fresh process, before any URLSession is made (FoundationNetworking
// makes the shared session with the URLProtocol classes registered by then): the shared session
// is answered by the claiming host, a second claim is refused naming the first, and after a
// release another host claims it. Prints one line a step; exits 1 at the first that fails.
// SharedSessionTests runs it; a process of its own keeps its claims from other tests.
import Foundation
import HTTPHandlerKit
import URLSessionStubs

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("urlsession-stubs-shared-probe: \(message)\n".utf8))
    exit(1)
}

/// What `URLSession.shared` answers for `url`: the body as text.
func sharedAnswer(_ url: URL) async -> String {
    do {
        let (data, _) = try await URLSession.shared.data(from: url)
        return String(decoding: data, as: UTF8.self)
    } catch {
        fail("URLSession.shared failed for \(url): \(error)")
    }
}

func host(answering text: String) -> StubURLSessionHost {
    StubURLSessionHost(
        handler: HTTPClosureHandler { request in .response(HTTPResponse(text: "\(text) \(request.path)")) })
}

/// Writes a step's line at once, unbuffered: a sanitizer's exit handler must not lose it.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// The steps, in a function: its values are locals that end with it, not globals of the
/// script's top level that live to the exit.
func probe() async {
    guard let url = URL(string: "http://shared-claim.example/probe") else { fail("bad URL") }
    let first = host(answering: "first")
    let second = host(answering: "second")

    let claim: SharedSessionClaim
    do {
        claim = try first.claimSharedSession()
    } catch {
        fail("the first claim was refused: \(error)")
    }
    guard await sharedAnswer(url) == "first /probe" else {
        fail("URLSession.shared was not answered by the claiming host")
    }
    say("claimed: URLSession.shared answered by the first host")

    do {
        _ = try second.claimSharedSession()
        fail("a second claim was accepted while the first held")
    } catch .alreadyClaimed(let owner) {
        guard owner == claim.owner, owner.contains("main.swift:") else { fail("the refusal named '\(owner)'") }
        say("refused: \(SharedSessionClaimError.alreadyClaimed(owner: owner))")
    } catch {
        fail("the second claim failed otherwise: \(error)")
    }
    guard await sharedAnswer(url) == "first /probe" else { fail("the refused claim changed the answer") }

    claim.release()
    claim.release()
    let again: SharedSessionClaim
    do {
        again = try second.claimSharedSession()
    } catch {
        fail("a claim after the release was refused: \(error)")
    }
    guard await sharedAnswer(url) == "second /probe" else {
        fail("URLSession.shared was not answered by the new owner")
    }
    again.release()
    say("released and claimed again: URLSession.shared answered by the second host")
}

await probe()
