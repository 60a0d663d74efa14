import JSONKit

/// JSON Merge Patch (RFC 7396): a patch object sets the members it names, `null` removes one,
/// an object patches a member recursively; any patch that is not an object replaces the target.
public enum MergePatch {
    /// `target` with `patch` applied, as RFC 7396 §2's `MergePatch` function.
    public static func apply(_ patch: JSONValue, to target: JSONValue) -> JSONValue {
        guard case .object(let members) = patch else { return patch }
        var result: JSONObject
        if case .object(let object) = target { result = object } else { result = JSONObject() }
        for member in members.members {
            if case .null = member.value {
                result[member.key] = nil
            } else {
                result[member.key] = apply(member.value, to: result[member.key] ?? .null)
            }
        }
        return .object(result)
    }
}
