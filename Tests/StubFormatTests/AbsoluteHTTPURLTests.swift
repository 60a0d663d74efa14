import Testing

@testable import StubFormat

/// The one check of a URL petmock calls: `http://` or `https://` in any case, a host, no space
/// or control character; each refusal says which.
@Suite struct AbsoluteHTTPURLTests {
    @Test(arguments: [
        "http://127.0.0.1:8080/callback", "https://example.com", "HTTP://Example.com/x?y#z", "hTtPs://h",
        "http://user:secret@host:1/", "http://[::1]:9/x", "http://h?q", "http://h#f", "http://héllo.example/ü",
    ])
    func callable(_ url: String) {
        #expect(AbsoluteHTTPURL.problem(url) == nil)
    }

    @Test(arguments: [
        ("/callback", "'/callback', which is not http:// or https:// (petmock calls no other scheme)"),
        (
            "file:///etc/passwd",
            "'file:///etc/passwd', which is not http:// or https:// (petmock calls no other scheme)"
        ),
        ("http:/x", "'http:/x', which is not http:// or https:// (petmock calls no other scheme)"),
        ("http", "'http', which is not http:// or https:// (petmock calls no other scheme)"),
        ("http://", "'http://', which names no host"),
        ("http:///path", "'http:///path', which names no host"),
        ("https://:8080/x", "'https://:8080/x', which names no host"),
        ("http://user@/x", "'http://user@/x', which names no host"),
        ("http://h/a b", "'http://h/a b', which holds spaces or control characters"),
        ("http://h/\u{7F}", "'http://h/\u{7F}', which holds spaces or control characters"),
        ("http://h/\t", "'http://h/\t', which holds spaces or control characters"),
    ])
    func refused(_ url: String, _ problem: String) {
        #expect(AbsoluteHTTPURL.problem(url) == problem)
    }

    @Test func aLongURLIsQuotedInPart() {
        let url = "ftp://" + String(repeating: "a", count: 300)
        #expect(
            AbsoluteHTTPURL.problem(url)
                == "'\(url.prefix(200))', which is not http:// or https:// (petmock calls no other scheme)")
    }
}
