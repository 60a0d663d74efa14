/// The cases of Prism's harness petmock answers otherwise, each with why: ``deliberate`` (a
/// presentation detail, or a choice petmock holds better; docs/petmock.md, "Differences from
/// Prism") and ``open`` (what petmock does not do yet). `PrismHarnessTests` runs every listed case
/// as a known issue, so one that starts passing fails the test and must leave the table.
enum PrismDifferences {
    static let problemDocument =
        "petmock's own problem documents: a urn:petmock:problem: type, its title and detail, and the members "
        + "operation and violations, where Prism writes its error URLs, titles and validation/headers members"
    static let violationsField =
        "violations are named in Petmock-Violations (the count and the first, printable ASCII), "
        + "not in Prism's sl-violations JSON list"
    static let parameterStatus =
        "a request refused for a parameter, or for a missing body, is a 400 (a body that parses but breaks its "
        + "schema is a 422); Prism answers 422 to every invalid request"
    static let refusalWithoutContent =
        "a refusal is answered by the operation's documented 4xx only when that answer has content: one with no "
        + "body would hide the violations; Prism sends the empty documented 422"
    static let xmlRoot =
        "an XML body's root element is named by xml.name, else by the component its $ref names (Pet), else "
        + "'root'; Prism names it 'xml'"
    static let generatedValues =
        "generated values are petmock's generator's (valid against the schema, properties in the schema's order, "
        + "recursion cut short by depth), not json-schema-faker's (0 for a number, the first enum value, "
        + "alphabetized keys)"
    static let headAsGet =
        "a HEAD to a path without a head operation is answered as its GET, without the body (RFC 9110 §9.3.2); "
        + "Prism answers 405"
    static let corsWithOrigin =
        "CORS fields are added only to a request with Origin (a browser's); Prism adds them to every answer"
    static let allowHeadersEchoed =
        "a preflight's Access-Control-Allow-Headers echoes the Access-Control-Request-Headers, sent only when "
        + "asked; Prism sends '*', which a browser takes literally on a credentialed request"
    static let swaggerDefaultMediaType =
        "a Swagger 2.0 response with a schema and no produces is application/json, so its example is sent; "
        + "Prism sends no body"
    static let noValidBody =
        "a schema no value satisfies (a oneOf whose branches overlap, so every value matches both) is a 500 that "
        + "names it; Prism sends a value that breaks the schema"
    static let proxyRefuses =
        "the validating proxy answers a request the document refuses itself and never sends it to the live API; "
        + "Prism passes it on unless --errors"
    static let proxyGatewayError =
        "with --errors, a live API's answer that breaks the document is a 502 (a gateway's error: the live API "
        + "answered wrongly), not Prism's 500"
    static let proxyBodyWithoutRequestBody =
        "a body sent to an operation that documents none is a 415, through the proxy as when mocking; Prism's "
        + "proxy answers 501 to a GET with a body"
    static let multipartAllowReserved =
        "allowReserved is checked in application/x-www-form-urlencoded bodies only, as OpenAPI says (a "
        + "multipart part is not percent-encoded); Prism checks multipart parts too"
    static let undocumentedFormField =
        "a form body whose only field the document does not name is accepted (the array field 'arr' is not "
        + "required); Prism reports 'arr' as not an array"
    static let postmanNotJSON =
        "a Postman collection is read as the JSON Postman writes: one with a trailing comma is refused with its "
        + "line and column; Prism's reader takes it"
    static let postmanExactCredential =
        "a Postman request's helper is required as the collection writes it (--postman-auth on): its own token, "
        + "its own username and password, so an app sending another credential is refused; Prism checks only the "
        + "credential's form"
    static let postmanBodyNotMatched =
        "a Postman collection has no schema, and a request body is not matched or checked against one inferred "
        + "from its examples (one example's values are no contract: an optional field, another type of message); "
        + "Prism infers one and answers 422"
    static let postmanFirstExample =
        "of a request's saved examples the first is its default answer (the one Postman lists first, as its mock "
        + "servers answer); Prism answers the lowest 2xx"
    static let stubIgnoresAccept =
        "a stub answers whatever Accept asks, as WireMock's do: Accept chooses among a request's examples, and when "
        + "it accepts none of them the first answers; Prism answers 406"
    static let stubUnansweredStatus =
        "a Prefer: code= (or __code=) no stub answers with is a 400 naming the statuses the stubs give, as for "
        + "every stub; Prism answers 404"
    static let stubUnmatchedReport =
        "a request no stub matches is the stub server's 404 report (text, with the closest stubs), as WireMock's; "
        + "Prism sends a problem document"

    /// The deliberate differences, file → reason.
    static let deliberate: [String: String] = {
        var table: [String: String] = [:]
        func add(_ reason: String, _ files: [String]) {
            for file in files { table[file] = table[file].map { "\($0); \(reason)" } ?? reason }
        }
        add(
            problemDocument,
            [
                "content-negotiation/E2E-Accept-Content-Negotiation-AC-6.oas2.txt",
                "content-negotiation/E2E-Accept-Content-Negotiation-AC-6.oas3.txt",
                "content-negotiation/E2E-Accept-Content-Negotiation.invalid.oas3.txt",
                "cors/cors-headers-disabled.txt",
                "default-responses/default_responses-AC-3.oas2.txt",
                "default-responses/default_responses-AC-3.oas3.txt",
                "default-responses/default_responses-AC-7.oas2.txt",
                "default-responses/default_responses-AC-7.oas3.txt",
                "generated-responses/too_complex-AC-1.oas3.txt",
                "range-status-codes/range-status-codes-AC-4.oas3.txt",
                "security/security-scheme-validation-AC-13.only_oas3.txt",
                "security/security-scheme-validation-AC-14.oas2.txt",
                "security/security-scheme-validation-AC-14.oas3.txt",
                "security/security-scheme-validation-AC-16.oas2.txt",
                "security/security-scheme-validation-AC-16.oas3.txt",
                "security/security-scheme-validation-AC-17.oas2.txt",
                "security/security-scheme-validation-AC-17.oas3.txt",
                "security/security-scheme-validation-AC-19.oas2.txt",
                "security/security-scheme-validation-AC-19.oas3.txt",
                "security/security-scheme-validation-AC-19.pc.txt",
                "security/security-scheme-validation-AC-14.pc.txt",
                "security/security-scheme-validation-AC-2.oas2.txt",
                "security/security-scheme-validation-AC-2.oas3.txt",
                "security/security-scheme-validation-AC-22.oas3.txt",
                "security/security-scheme-validation-AC-25.oas2.txt",
                "security/security-scheme-validation-AC-25.oas3.txt",
                "security/security-scheme-validation-AC-26.oas2.txt",
                "security/security-scheme-validation-AC-26.oas3.txt",
                "security/security-scheme-validation-AC-3.oas2.txt",
                "security/security-scheme-validation-AC-3.oas3.txt",
                "security/security-scheme-validation-AC-3.pc.txt",
                "security/security-scheme-validation-AC-2.pc.txt",
                "security/security-scheme-validation-AC-5.oas2.txt",
                "security/security-scheme-validation-AC-5.oas3.txt",
                "security/security-scheme-validation-AC-6.oas2.txt",
                "security/security-scheme-validation-AC-6.oas3.txt",
                "security/security-scheme-validation-AC-6.pc.txt",
                "security/security-scheme-validation-AC-5.pc.txt",
                "selecting-examples/manually-select-examples-AC-2.oas3.txt",
                "selecting-examples/manually-select-examples-AC-5.oas3.txt",
                "serialization/E2E-text-html-complex-serialisation.oas3.txt",
                "serialization/E2E-text-plain-complex-serialisation.oas3.txt",
                "validate-body-params/allow-empty-value-2.oas2.txt",
                "validate-body-params/form-byte-format-fail.oas2.txt",
                "validate-body-params/form-data-allow-reserved-fail.oas3.txt",
                "validate-body-params/form-data-invalid-request.oas2.txt",
                "validate-body-params/form-data-invalid-request.oas3.txt",
                "validate-body-params/json-invalid-request-2.oas2.txt",
                "validate-body-params/json-invalid-request-2.oas3.txt",
                "validate-body-params/multipart-allow-empty-value-2.oas2.txt",
                "validate-body-params/multipart-form-byte-format-fail.oas2.txt",
                "validate-body-params/multipart-form-data-invalid-request.oas2.txt",
                "validate-body-params/multipart-form-data-invalid-request.oas3.txt",
                "violations/array-min-contains.httpResponse.txt",
                "violations/array-prefix-items.httpResponse.txt",
                "violations/print-as-http-response.txt",
                "violations/value-not-in-enum.httpResponse.txt",
            ])
        add(
            violationsField,
            [
                "proxy/proxy.validation.httpHeader-truncated.txt",
                "proxy/proxy.validation.httpHeader.txt",
                "violations/combined-request-response.txt",
                "violations/do-not-stop-warnings.txt",
                "violations/ignoring-example-key-for-invalid-body.txt",
                "violations/input-only-no-500.txt",
                "violations/print-as-http-header.txt",
            ])
        add(
            parameterStatus,
            [
                "proxy/proxy.invalid-request.txt",
                "validate-header-params/invalid-header.oas2.txt",
                "validate-header-params/invalid-header.oas3.txt",
                "validate-header-params/missing-required-header.oas2.txt",
                "validate-header-params/missing-required-header.oas3.txt",
                "validate-path-params/missing-path-param.oas3.txt",
                "validate-path-params/path-param-not-matching-regex.oas3.txt",
                "validate-query-params/missing-query-param.oas2.txt",
                "validate-query-params/missing-query-param.oas3.txt",
                "validate-query-params/query-param-form-exploded-object-invalid.oas3.txt",
                "validate-query-params/query-param-form-not-exploded-object-invalid.oas3.txt",
                "validate-query-params/query-param-style-mismatch.only_oas3.txt",
                "validate-query-params/query-param-type-mismatch.oas2.txt",
                "validate-query-params/query-param-type-mismatch.oas3.txt",
            ])
        add(
            refusalWithoutContent,
            [
                "empty-responses/empty-responses-AC-5.oas2.txt",
                "empty-responses/empty-responses-AC-5.oas3.txt",
                "empty-responses/empty-responses-AC-7.oas2.txt",
                "empty-responses/empty-responses-AC-7.oas3.txt",
            ])
        add(
            xmlRoot,
            [
                "content-negotiation/E2E-Accept-Content-Negotiation-AC-14.oas2.txt",
                "content-negotiation/E2E-Accept-Content-Negotiation-Xml-AC-1.oas2.txt",
                "content-negotiation/E2E-Accept-Content-Negotiation-Xml-AC-1.oas3.txt",
                "content-negotiation/E2E-Accept-Content-Negotiation-Xml-AC-4.oas2.txt",
                "content-negotiation/E2E-Accept-Content-Negotiation-Xml-AC-5.oas2.txt",
                "dynamic-responses/dynamic_response_prefer_header.txt",
                "dynamic-responses/dynamic_xml_responses-AC-1.dynamic-response.oas2.txt",
                "dynamic-responses/dynamic_xml_responses-AC-1.dynamic-response.oas3.txt",
                "dynamic-responses/dynamic_xml_responses-AC-2.dynamic-response.oas2.txt",
                "dynamic-responses/dynamic_xml_responses-AC-2.dynamic-response.oas3.txt",
            ])
        add(
            generatedValues,
            [
                "dynamic-responses/dynamic_json_alphabetize_response.oas2.txt",
                "references/E2E-Recursive-Array-Handling.oas3.1.txt",
                "references/E2E-Recursive-Array-Handling.oas3.txt",
                "routing/prefer-colon-path.oas3.txt",
                "routing/prefer-concrete-path.oas3.txt",
                "security/security-scheme-validation-AC-21.oas2.txt",
                "security/security-scheme-validation-AC-21.oas3.txt",
                "static-examples/static_examples-AC-1.oas3_1.txt",
                "static-examples/static_examples-AC-2.oas3_1.txt",
            ])
        add(
            headAsGet,
            [
                "head-requests/head_requests-AC-2.oas2.txt", "head-requests/head_requests-AC-2.oas3.txt",
                "head-requests/head_requests-AC-2.pc.txt",
            ])
        add(postmanExactCredential, ["security/security-scheme-validation-AC-9.pc.txt"])
        add(
            postmanBodyNotMatched,
            [
                "security/security-scheme-validation-AC-27.pc.txt",
                "validate-body-params/json-inference-invalid-request.pc.txt",
                "validate-body-params/json-invalid-request-2.pc.txt",
            ])
        add(postmanFirstExample, ["default-responses/default_responses-AC-6.pc.txt"])
        add(stubIgnoresAccept, ["content-negotiation/E2E-Accept-Content-Negotiation-AC-6.pc.txt"])
        add(
            stubUnansweredStatus,
            ["default-responses/default_responses-AC-3.pc.txt", "default-responses/default_responses-AC-7.pc.txt"])
        add(stubUnmatchedReport, ["validate-path-params/missing-segment.pc.txt"])
        add(corsWithOrigin, ["cors/cors-headers-in-response.txt"])
        add(swaggerDefaultMediaType, ["cors/cors-headers-in-response.txt"])
        add(allowHeadersEchoed, ["cors/cors-headers-precedence.txt"])
        add(refusalWithoutContent, ["violations/input-only-no-500.txt"])
        add(noValidBody, ["dynamic-responses/dynamic_json_responses-AC-3.dynamic-response.only_oas3.txt"])
        add(proxyRefuses, ["proxy/proxy-invalid-request-no.errors.txt"])
        add(proxyGatewayError, ["proxy/proxy.validation.httpResponse.txt"])
        add(proxyBodyWithoutRequestBody, ["proxy/proxy.get-with-body.txt"])
        add(multipartAllowReserved, ["validate-body-params/multipart-form-data-allow-reserved-fail.oas3.txt"])
        add(undocumentedFormField, ["validate-body-params/x-www-urlencoded-fail.oas2.txt"])
        add(
            postmanNotJSON,
            [
                "content-negotiation/E2E-Accept-Content-Negotiation-AC-1.pc.txt",
                "content-negotiation/E2E-Accept-Content-Negotiation.complex.pc.txt",
                "content-negotiation/E2E-Accept-Content-Negotiation.empty.pc.txt",
                "content-negotiation/E2E-Accept-Content-Negotiation.invalid.pc.txt",
                "security/security-scheme-validation-AC-10.pc.txt",
                "security/security-scheme-validation-AC-16.pc.txt",
                "security/security-scheme-validation-AC-17.pc.txt",
                "security/security-scheme-validation-AC-8.pc.txt",
            ])
        return table
    }()

    /// What petmock does not do yet, file → what: bugs left open.
    static let open: [String: String] = [:]
}
