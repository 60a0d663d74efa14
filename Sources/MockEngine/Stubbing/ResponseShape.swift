import HTTPCore
import HTTPHandlerKit
import StubFormat
import Templating

/// What every answer of a templated stub shares, worked out at load: the status, the served
/// fields in order (the mapping's, then those petmock adds), the delay and dribble, and the
/// head's fixed bytes around the templated values (``PreparedHead``). A render fills in the
/// templated values and the body; nothing else of the mapping is looked at per request.
struct ResponseShape: Sendable {
    /// The status, with the mapping's reason phrase (a templated one replaces it per answer).
    let status: HTTPStatus
    /// The served fields, the templated values as written.
    let fields: [HTTPHeaders.Field]
    /// The fields whose values are checked for control characters per answer: the templated
    /// ones, and fixed ones that hold some (then every answer is refused).
    let checkedFields: [Int]
    /// The fixed status message holds control characters: every answer is refused.
    let statusRefused: Bool
    /// The head's layout; nil when the rendered values change more than their own bytes (a
    /// templated `Connection` field, or a templated file name whose extension implies the
    /// `Content-Type`): then each answer is prepared whole from the mapping.
    let head: PreparedHead?
    let delay: StubDelay
    let dribble: HTTPDribble?

    init(_ mapping: StubMapping, statusTemplated: Bool, templatedFields: [Int], fileNameTemplated: Bool) {
        let response = mapping.response
        var status = HTTPStatus(code: response.status, reasonPhrase: response.statusMessage)
        var fields = response.headers.fields
        var delay = StubDelay.none
        var dribble: HTTPDribble?
        // The mapping's answer prepared with an empty body gives the served fields and the
        // rest; a templated stub is never a fault (StubCompiler.templates).
        if case .prepared(let prepared, let preparedDelay, let preparedDribble) = StubCompiler.prepare(
            mapping, body: [], compress: false)
        {
            status = prepared.response.status
            fields = prepared.response.headers.fields
            delay = preparedDelay
            dribble = preparedDribble
        }
        self.status = status
        self.fields = fields
        self.delay = delay
        self.dribble = dribble
        let refused = fields.indices.filter { index in
            index < response.headers.count && !templatedFields.contains(index)
                && Self.holdsControlCharacters(fields[index].value)
        }
        checkedFields = (templatedFields + refused).sorted()
        statusRefused =
            !statusTemplated
            && response.statusMessage.map { Self.holdsControlCharacters($0, allowingDelete: true) } == true
        let impliesType = fileNameTemplated && !response.headers.contains(name: "Content-Type")
        head =
            impliesType
            ? nil
            : PreparedHead(
                status: status, headers: HTTPHeaders(fields), variableStatus: statusTemplated,
                variableFields: templatedFields)
    }

    /// Whether a rendered value holds a control character other than tab (DEL too for fields).
    static func holdsControlCharacters(_ text: String, allowingDelete: Bool = false) -> Bool {
        text.utf8.contains { ($0 < 0x20 && $0 != 0x09) || (!allowingDelete && $0 == 0x7F) }
    }
}
