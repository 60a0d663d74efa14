import Templating
import Testing

/// WireMock 3 renders templates with Handlebars.java's `EscapingStrategy.NOOP` (its
/// `templateEscapingDisabled` defaults to true): `{{x}}` writes what `{{{x}}}` writes.
@Suite struct TemplateEscapingTests {
    @Test func jsonPathKeepsSingleQuotes() throws {
        let model = context(method: "POST", url: "/noescape", body: #"{"test":"look at my 'single quotes'"}"#)
        #expect(
            try render(#"{"test": "{{jsonPath request.body '$.test'}}"}"#, model)
                == #"{"test": "look at my 'single quotes'"}"#)
    }

    @Test func requestURLKeepsEqualsSigns() throws {
        #expect(try render("{{request.url}}", context(url: "/model/thing?search=abc")) == "/model/thing?search=abc")
    }

    @Test(arguments: ["{{request.body}}", "{{{request.body}}}", "{{& request.body}}", "{{jsonPath request.body '$'}}"])
    func writesHTMLCharactersAsTheyAre(template: String) throws {
        let body = #""<a href=\"x\">'`&=""#
        let expected = template.contains("jsonPath") ? #"<a href="x">'`&="# : body
        #expect(try render(template, context(body: body)) == expected)
    }
}
