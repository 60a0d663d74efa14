import JSONKit
import StubFormat

extension GlobalSettings {
    /// How a settings body changes the settings.
    package enum Change {
        /// `PUT`/`POST /__admin/settings`: the body is the new settings; what it leaves out is unset.
        case replace
        /// `PATCH /__admin/settings`: each field the body names replaces that one (null unsets
        /// it), `extended` merges key by key; the others stay.
        case merge
        /// `PATCH /__admin/settings/extended` (WireMock's): `{"extended": {...}}` merged key by key.
        case mergeExtended
    }

    /// The settings' fields, for messages.
    static let fieldNames = ["fixedDelay", "delayDistribution", "extended", "proxyPassThrough"]

    /// The settings a body makes of `current`; every problem in it, by JSON path, is thrown. The body
    /// is WireMock's settings object, bare or as `GET` answers it (`{"settings": {...}}`). A
    /// field petmock does not know is an error naming it, never dropped; `proxyPassThrough:
    /// false` is refused (petmock always passes proxy stubs through).
    static func decode(
        _ body: JSONValue, _ change: Change, over current: GlobalSettings
    ) throws(AdminError) -> GlobalSettings {
        var decoder = MappingDecoder(file: "")
        guard var object = decoder.object(body, at: .root) else { throw .invalidSettings(decoder.problems) }
        var path = JSONPath.root
        if change != .mergeExtended, object.members.count == 1, let wrapped = object["settings"] {
            path = path.appending(key: "settings")
            guard let inner = decoder.object(wrapped, at: path) else { throw .invalidSettings(decoder.problems) }
            object = inner
        }
        var settings = change == .replace ? GlobalSettings() : current
        for member in object.members {
            let here = path.appending(key: member.key)
            let value = member.value
            if change == .mergeExtended && member.key != "extended" {
                decoder.invalid(here, expected: "only 'extended'", found: "'\(member.key)'", kind: .unknownField)
                continue
            }
            switch member.key {
            case "fixedDelay":
                settings.fixedDelay = value.isNull ? nil : decoder.integer(value, at: here, in: 0...3_600_000)
            case "delayDistribution":
                settings.delayDistribution = value.isNull ? nil : decoder.delayDistribution(value, at: here)
            case "extended":
                if value.isNull && change != .mergeExtended {
                    settings.extended = nil
                    continue
                }
                guard let extended = decoder.object(value, at: here) else { continue }
                if change == .replace {
                    settings.extended = extended
                } else {
                    var merged = settings.extended ?? JSONObject()
                    for entry in extended.members { merged[entry.key] = entry.value }
                    settings.extended = merged
                }
            case "proxyPassThrough":
                if value.isNull { continue }
                guard let flag = decoder.bool(value, at: here), !flag else { continue }
                decoder.invalid(
                    here, expected: "true (petmock always passes proxy stubs through)", found: "false",
                    kind: .invalidValue)
            default:
                decoder.invalid(
                    here, expected: "one of " + fieldNames.map { "'\($0)'" }.joined(separator: ", "),
                    found: "'\(member.key)', a setting petmock does not implement", kind: .unknownField)
            }
        }
        if change == .mergeExtended && object["extended"] == nil {
            decoder.missing(path.appending(key: "extended"), "extended")
        }
        guard decoder.errorCount == 0 else { throw .invalidSettings(decoder.problems) }
        return settings
    }
}
