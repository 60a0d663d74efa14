import Dispatch
import TestSupport
import Testing

/// TestSupport's `ScriptedServer`, the hostile tests' server: what `stop()` promises.
@Suite struct ScriptedServerTests {
    @Test func stopHangsUpAConnectionStillBeingWrittenTo() throws {
        let writing = DispatchSemaphore(value: 0)
        let server = try ScriptedServer { _, connection in
            guard connection.write("HTTP/1.1 200 OK\r\nContent-Length: 1000000000\r\n\r\n") else { return }
            writing.signal()
            let piece = [UInt8](repeating: 0x41, count: 64 * 1024)
            while connection.write(piece) {}  // endless, until the client is gone or hung up on
        }
        let client = try RawClient(port: server.port)
        try client.send(get("/endless"))
        #expect(writing.wait(timeout: .now() + 10) == .success)
        // Returns once the behaviour has seen the connection end and its thread has finished:
        // the client never read, so only the hang-up can end the write.
        server.stop()
        #expect(server.acceptedCount == 1)
        let ending = try client.readToEnd()
        #expect(ending.ended, "the connection ends after what was already sent")
        #expect(ending.bytes.starts(with: Array("HTTP/1.1 200 OK\r\n".utf8)))
    }

    @Test func eachRequestHeadOnAConnectionGoesToTheBehaviourInTurn() throws {
        let server = try ScriptedServer { path, connection in
            connection.write("HTTP/1.1 200 OK\r\nContent-Length: \(path.utf8.count)\r\n\r\n\(path)")
        }
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        try client.send(get("/one") + get("/two"))
        #expect(try client.readResponse().text == "/one")
        #expect(try client.readResponse().text == "/two")
        #expect(server.acceptedCount == 1)
    }
}
