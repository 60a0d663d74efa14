extension TemplateHelpers {
    static let random: [String: Function] = [
        "randomValue": { call throws(TemplateError) in
            let type = (call.hashText("type") ?? "ALPHANUMERIC").uppercased()
            if type == "UUID" { return .string(uuid()) }
            let length = call.hash("length")?.integer ?? 36
            guard length >= 0, length <= 100_000 else {
                throw call.failure("expects a length from 0 to 100000, found \(length)")
            }
            let alphabet: [Character]
            switch type {
            case "ALPHANUMERIC": alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
            case "ALPHABETIC": alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
            case "NUMERIC": alphabet = Array("0123456789")
            case "HEXADECIMAL": alphabet = Array("0123456789abcdef")
            case "ALPHANUMERIC_AND_SYMBOLS":
                alphabet = Array(
                    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!#$%&()*+,-./:;<=>?@[]^_{|}~")
            default:
                throw call.failure(
                    "expects type ALPHANUMERIC, ALPHABETIC, NUMERIC, HEXADECIMAL, ALPHANUMERIC_AND_SYMBOLS or UUID, found '\(type)'"
                )
            }
            try call.spend(length)
            var text = String((0..<length).map { _ in alphabet.randomElement() ?? "0" })
            if call.flag("uppercase") { text = text.uppercased() }
            return .string(text)
        },
        "randomInt": { call throws(TemplateError) in
            let lower = call.hash("lower")?.integer ?? Int(Int32.min)
            let upper = call.hash("upper")?.integer ?? Int(Int32.max)
            guard lower < upper else { throw call.failure("expects lower (\(lower)) below upper (\(upper))") }
            return .int(Int.random(in: lower..<upper))
        },
        "randomDecimal": { call throws(TemplateError) in
            let lower = call.hash("lower")?.number ?? -Double(Int32.max)
            let upper = call.hash("upper")?.number ?? Double(Int32.max)
            guard lower < upper else { throw call.failure("expects lower below upper") }
            return .double(Double.random(in: lower..<upper))
        },
        "pickRandom": { call throws(TemplateError) in
            var choices: [TemplateValue] = []
            for value in call.parameters {
                switch value {
                case .array, .json(.array), .node: choices += value.entries.map(\.value)
                default: choices.append(value)
                }
            }
            guard !choices.isEmpty else { throw call.failure("expects values to pick from") }
            if let count = call.hash("count")?.integer {
                guard count >= 0 else { throw call.failure("expects a count of at least 0, found \(count)") }
                return .array(Array(choices.shuffled().prefix(count)))
            }
            return choices.randomElement() ?? .null
        },
    ]

    /// A random version 4 UUID, lowercase.
    static func uuid() -> String {
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255) }
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        let hex = Array("0123456789abcdef")
        var text = ""
        for (index, byte) in bytes.enumerated() {
            if [4, 6, 8, 10].contains(index) { text.append("-") }
            text.append(hex[Int(byte >> 4)])
            text.append(hex[Int(byte & 15)])
        }
        return text
    }
}
