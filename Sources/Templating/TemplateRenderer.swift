import JSONKit
import Platform

/// Renders a compiled tree against a context: one per render, confined to one thread.
struct TemplateRenderer {
    let limits: TemplateLimits
    /// The rendered text's UTF-8, written in place (one buffer per render).
    private(set) var output: [UInt8] = []
    /// The bytes written so far, a block helper's body included (the output limit's count).
    private var outputBytes = 0
    private var iterationsLeft: Int
    /// How much more work helpers may do (``TemplateLimits/maximumWork``).
    private var workLeft: Int
    /// Variables set by helpers (`assign`, `formData`...), visible after they are set.
    private var variables: [String: TemplateValue] = [:]
    /// The first context (the render's argument); the stack starts with it.
    private let root: TemplateValue
    /// The contexts blocks pushed on the root (`this` is the last, or the root when none):
    /// apart, so that a render with no block allocates no stack.
    private var contexts: [TemplateValue] = []
    /// How many contexts the stack holds, the root included.
    private var contextCount: Int { contexts.count + 1 }

    /// The context at `index` on the stack (0 is the root).
    private func context(at index: Int) -> TemplateValue { index == 0 ? root : contexts[index - 1] }
    /// Block parameters and data variables (`@index`), innermost last.
    private var scopes: [[String: TemplateValue]] = []

    /// The render's "now", in milliseconds since the epoch: the clock's wall-clock time, read
    /// when a helper first runs (a render with no helper reads no clock).
    private var now: Int64?
    /// Where ``now`` is read.
    private let clock: TimeSource

    /// The last text a helper parsed as JSON, and its value: helpers reading the same JSON
    /// (several `jsonPath`s of the request's body) parse it once per render.
    var parsedJSON: (text: String, value: JSONValue?)?

    /// The root's `request`, when it is a ``TemplateRequest``: paths compiled to a
    /// ``RequestAccess`` are read from it directly while nothing else can answer `request`.
    private let rootRequest: TemplateRequest?

    /// The state extension's contexts the `state` helper reads, if the render has any.
    private let state: (any TemplateStateSource)?

    init(
        root: TemplateValue, limits: TemplateLimits, clock: TimeSource, capacity: Int = 0,
        state: (any TemplateStateSource)? = nil
    ) {
        self.limits = limits
        self.state = state
        if case .object(let members) = root, let request = members.first(where: { $0.key == "request" }),
            case .node(let node) = request.value
        {
            rootRequest = node as? TemplateRequest
        } else {
            rootRequest = nil
        }
        output.reserveCapacity(capacity)
        self.clock = clock
        iterationsLeft = limits.maximumIterations
        workLeft = limits.maximumWork
        self.root = root
    }

    mutating func render(_ segments: [TemplateSegment]) throws(TemplateError) {
        for segment in segments {
            switch segment {
            case .text(let text): try write(text)
            case .output(let expression):
                if case .path(let path, _) = expression, let access = path.requestAccess, let request = directRequest {
                    try write(request.text(access))
                    continue
                }
                if case .call(let call) = expression, let fast = call.requestJSONPath, let request = directRequest,
                    try renderJSONPath(call, fast.access, fast.path, fast.definite, fast.expressionLength, request)
                {
                    continue
                }
                try write(try evaluate(expression).text)
            case .block(let block): try render(block)
            }
        }
    }

    private mutating func write(_ text: String) throws(TemplateError) {
        try reserve(text.utf8.count)
        // A native string's UTF-8 is contiguous: copied as one block, not byte by byte.
        let copied: Void? = text.utf8.withContiguousStorageIfAvailable { bytes in output.append(contentsOf: bytes) }
        if copied == nil { output.append(contentsOf: text.utf8) }
    }

    /// Refuses output past the limit.
    private mutating func reserve(_ count: Int) throws(TemplateError) {
        outputBytes += count
        guard outputBytes <= limits.maximumOutputLength else {
            throw TemplateError(
                "the rendered text would be longer than the limit of \(limits.maximumOutputLength) bytes", at: nil,
                stopsRender: true)
        }
    }

    private mutating func render(_ block: TemplateBlock) throws(TemplateError) {
        guard let helper = block.call.helper else { return }
        switch helper.kind {
        case .ifBlock, .unlessBlock:
            let value = try block.call.parameters.first.map { expression throws(TemplateError) in
                try evaluate(expression)
            }
            var truthy = value?.isTruthy ?? false
            if !truthy, block.call.hash.contains(where: { $0.key == "includeZero" }), value?.number == 0 {
                truthy = true
            }
            if case .unlessBlock = helper.kind { truthy.toggle() }
            try render(truthy ? block.body : block.inverse)
        case .withBlock:
            let value = try block.call.parameters.first.map { expression throws(TemplateError) in
                try evaluate(expression)
            }
            guard let value, value.isTruthy else { return try render(block.inverse) }
            try within(value, scope: Self.blockScope(block.blockParameters, [value])) {
                renderer throws(TemplateError) in
                try renderer.render(block.body)
            }
        case .eachBlock:
            let value = try block.call.parameters.first.map { expression throws(TemplateError) in
                try evaluate(expression)
            }
            let entries = value?.entries ?? []
            guard !entries.isEmpty else { return try render(block.inverse) }
            for (index, entry) in entries.enumerated() {
                guard iterationsLeft > 0 else {
                    throw TemplateError(
                        "'each' would visit more elements than the render's limit allows", at: block.call.position,
                        stopsRender: true)
                }
                iterationsLeft -= 1
                var scope = Self.blockScope(
                    block.blockParameters, [entry.value, entry.key.map(TemplateValue.string) ?? .int(index)])
                scope["@index"] = .int(index)
                scope["@first"] = .bool(index == 0)
                scope["@last"] = .bool(index == entries.count - 1)
                if let key = entry.key { scope["@key"] = .string(key) }
                try within(entry.value, scope: scope) { renderer throws(TemplateError) in
                    try renderer.render(block.body)
                }
            }
        case .function:
            var parameters = try block.call.parameters.map { expression throws(TemplateError) in
                try evaluate(expression)
            }
            if block.call.name == "arrayJoin", parameters.count > 1 {
                return try joinBlock(block, parameters)
            }
            if helper.blockContent != .none {
                var inner = self
                inner.output = []
                try inner.render(block.body)
                iterationsLeft = inner.iterationsLeft
                workLeft = inner.workLeft
                variables = inner.variables
                parsedJSON = inner.parsedJSON
                now = inner.now
                let content = String(decoding: inner.output, as: UTF8.self)
                if helper.blockContent == .prepend {
                    parameters.insert(.string(content), at: 0)
                } else {
                    parameters.append(.string(content))
                }
                let result = try invoke(block.call, helper, parameters)
                try write(result.text)
                return
            }
            let result = try invoke(block.call, helper, parameters)
            if case .bool(let truthy) = result {
                try render(truthy ? block.body : block.inverse)
            } else if result.isTruthy {
                try within(result, scope: Self.blockScope(block.blockParameters, [result])) {
                    renderer throws(TemplateError) in
                    try renderer.render(block.body)
                }
            } else {
                try render(block.inverse)
            }
        }
    }

    /// `{{#arrayJoin ',' list as |item|}}...{{/arrayJoin}}`: the body per element, joined.
    private mutating func joinBlock(_ block: TemplateBlock, _ parameters: [TemplateValue]) throws(TemplateError) {
        let items = TemplateHelpers.flattened(parameters.dropFirst())
        let separator = parameters[0].text
        var hash: [String: String] = [:]
        for member in block.call.hash { hash[member.key] = try evaluate(member.value).text }
        try write(hash["prefix"] ?? "")
        for (index, item) in items.enumerated() {
            guard iterationsLeft > 0 else {
                throw TemplateError(
                    "'arrayJoin' would visit more elements than the render's limit allows", at: block.call.position,
                    stopsRender: true)
            }
            iterationsLeft -= 1
            if index > 0 { try write(separator) }
            var scope = Self.blockScope(block.blockParameters, [item, .int(index)])
            scope["@index"] = .int(index)
            try within(item, scope: scope) { renderer throws(TemplateError) in try renderer.render(block.body) }
        }
        try write(hash["suffix"] ?? "")
    }

    private static func blockScope(_ names: [String], _ values: [TemplateValue]) -> [String: TemplateValue] {
        var scope: [String: TemplateValue] = [:]
        for (name, value) in zip(names, values) { scope[name] = value }
        return scope
    }

    private mutating func within(
        _ context: TemplateValue, scope: [String: TemplateValue],
        _ body: (inout TemplateRenderer) throws(TemplateError) -> Void
    ) throws(TemplateError) {
        contexts.append(context)
        scopes.append(scope)
        defer {
            contexts.removeLast()
            scopes.removeLast()
        }
        try body(&self)
    }

    mutating func evaluate(_ expression: TemplateExpression) throws(TemplateError) -> TemplateValue {
        switch expression {
        case .literal(let literal):
            switch literal {
            case .string(let text): return .string(text)
            case .int(let value): return .int(value)
            case .double(let value): return .double(value)
            case .bool(let value): return .bool(value)
            case .null: return .null
            }
        case .path(let path, _): return resolve(path)
        case .call(let call):
            guard let helper = call.helper else { return .null }
            let parameters = try call.parameters.map { expression throws(TemplateError) in try evaluate(expression) }
            switch helper.kind {
            case .function: return try invoke(call, helper, parameters)
            case .ifBlock, .unlessBlock:
                // Inline `{{if cond 'yes' 'no'}}`.
                var truthy = parameters.first?.isTruthy ?? false
                if case .unlessBlock = helper.kind { truthy.toggle() }
                return truthy
                    ? (parameters.count > 1 ? parameters[1] : .null) : (parameters.count > 2 ? parameters[2] : .null)
            case .eachBlock, .withBlock:
                throw TemplateError(
                    "'\(call.name)' is a block helper: use '{{#\(call.name) ...}}'", at: call.position,
                    stopsRender: true)
            }
        }
    }

    private mutating func invoke(
        _ call: TemplateCall, _ helper: TemplateHelper, _ parameters: [TemplateValue]
    ) throws(TemplateError) -> TemplateValue {
        guard case .function(let function) = helper.kind else { return .null }
        workLeft -= parameters.reduce(1) { $0 + $1.workEstimate }
        guard workLeft >= 0 else {
            throw TemplateError(
                "the helpers would do more work than the render's limit allows (\(limits.maximumWork) units)",
                at: call.position, stopsRender: true)
        }
        var hash: [(key: String, value: TemplateValue)] = []
        for member in call.hash { hash.append((member.key, try evaluate(member.value))) }
        var invocation = HelperCall(
            parameters: parameters, hash: hash, name: call.name, position: call.position,
            iterationsLeft: iterationsLeft, now: currentNow(), maximumLength: limits.maximumOutputLength,
            literalJSONPath: call.literalJSONPath, parsedJSON: parsedJSON, state: state)
        let result: TemplateValue
        do {
            result = try function(&invocation)
        } catch  where !error.stopsRender {
            // WireMock renders a helper's error in place; the render goes on.
            return .string("[ERROR: \(error.message)]")
        }
        iterationsLeft = invocation.iterationsLeft
        parsedJSON = invocation.parsedJSON
        for (name, value) in invocation.assignments { variables[name] = value }
        return result
    }

    /// `{{jsonPath request.query.NAME '$.x'}}` (``TemplateCall/requestJSONPath``): what
    /// ``invoke(_:_:_:)`` would write, with no argument list, ``HelperCall`` or intermediate
    /// node. False (with nothing changed) when the argument does not parse as JSON: the
    /// general path then makes the error as it does.
    private mutating func renderJSONPath(
        _ call: TemplateCall, _ access: RequestAccess, _ path: JSONPath, _ definite: Bool, _ expressionLength: Int,
        _ request: TemplateRequest
    ) throws(TemplateError) -> Bool {
        let argument = request.argument(access)
        let cost = 1 + argument.workEstimate + expressionLength
        workLeft -= cost
        guard workLeft >= 0 else {
            throw TemplateError(
                "the helpers would do more work than the render's limit allows (\(limits.maximumWork) units)",
                at: call.position, stopsRender: true)
        }
        let document: JSONValue?
        if let parsedJSON, parsedJSON.text == argument.text {
            document = parsedJSON.value
        } else {
            document = try? JSONValue(parsing: argument.text)
            parsedJSON = (argument.text, document)
        }
        guard let document else {
            workLeft += cost
            return false
        }
        let result: TemplateValue
        if definite {
            result = path.firstNode(in: document).map(TemplateValue.json) ?? .null
        } else {
            result = .json(.array(path.evaluate(on: document)))
        }
        let text = result.text
        try write(text)
        return true
    }

    /// The render's "now" (see ``now``), the clock read once per render.
    private mutating func currentNow() -> Int64 {
        if let now { return now }
        let read = clock.wallMilliseconds
        now = read
        return read
    }

    /// The request a ``RequestAccess`` reads: the root's, when the name `request` resolves to
    /// it (no block context, block parameter or assigned variable in between), else nil.
    private var directRequest: TemplateRequest? {
        guard let rootRequest, contexts.isEmpty, scopes.isEmpty, variables.isEmpty || variables["request"] == nil
        else { return nil }
        return rootRequest
    }

    private func resolve(_ path: TemplatePath) -> TemplateValue {
        if let access = path.requestAccess, let request = directRequest { return request.value(access) }
        var segments = path.segments[...]
        var value: TemplateValue
        if path.isData {
            guard let name = segments.popFirst() else { return .null }
            if name == "root" {
                value = root
            } else if let found = scopes.last(where: { $0["@" + name] != nil })?["@" + name] {
                value = found
            } else {
                return .null
            }
        } else if path.isThis || path.parents > 0 {
            value = context(at: max(0, contextCount - 1 - path.parents))
        } else {
            guard let name = segments.popFirst() else { return context(at: contextCount - 1) }
            if !scopes.isEmpty, let found = scopes.last(where: { $0[name] != nil })?[name] {
                value = found
            } else if !variables.isEmpty, let found = variables[name] {
                value = found
            } else if let found = member(name) {
                value = found
            } else {
                return .null
            }
        }
        for segment in segments {
            guard let next = value.member(segment) else { return .null }
            value = next
        }
        return value
    }

    /// The first context, innermost first, that has the member (Handlebars.java looks outward).
    private func member(_ name: String) -> TemplateValue? {
        var index = contextCount - 1
        while index >= 0 {
            if let found = context(at: index).member(name) { return found }
            index -= 1
        }
        return nil
    }

}
