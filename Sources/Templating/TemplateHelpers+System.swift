import Foundation
import LinearRegex
import Platform

/// Which keys `systemValue` may read, as WireMock's `SystemKeyAuthoriser`: regular
/// expressions matched against the whole key, ignoring case; `wiremock.*` unless petmock is
/// started with `PETMOCK_TEMPLATE_SYSTEM_KEYS` set (patterns separated by commas). A template
/// can never read an environment variable outside them, so a stub file cannot leak the
/// server's secrets.
package struct SystemKeyPolicy: Sendable {
    /// The environment variable that sets the patterns for the process.
    package static let environmentVariable = "PETMOCK_TEMPLATE_SYSTEM_KEYS"
    /// WireMock's default: only keys starting with `wiremock.`.
    package static let defaultPatterns = ["wiremock.*"]

    /// The patterns, as given.
    package let patterns: [String]
    private let regexes: [LinearTimeRegex]

    /// A policy permitting the keys `patterns` match (empty: the default patterns).
    package init(patterns: [String]) throws(RegexError) {
        let chosen = patterns.isEmpty ? Self.defaultPatterns : patterns
        var regexes: [LinearTimeRegex] = []
        for pattern in chosen { regexes.append(try LinearTimeRegex("(?i)" + pattern)) }
        self.patterns = chosen
        self.regexes = regexes
    }

    /// Whether a template may read `key`.
    package func isPermitted(_ key: String) -> Bool {
        regexes.contains { $0.wholeMatches(key) }
    }

    /// The process's policy, from ``environmentVariable`` (read once), or why it has none.
    package static let process: Result<SystemKeyPolicy, RegexError> = {
        let setting = PlatformEnvironment.value(environmentVariable) ?? ""
        let patterns = setting.split(separator: ",").map { String(String($0).trimmingSpaces) }.filter { !$0.isEmpty }
        do throws(RegexError) {
            return .success(try SystemKeyPolicy(patterns: patterns))
        } catch {
            return .failure(error)
        }
    }()

    /// Why `key` cannot be read, or nil when it can (`systemValue`'s check).
    static func refusal(_ key: String) -> String? {
        switch process {
        case .failure(let error):
            return "cannot read '\(key)': \(environmentVariable) holds an invalid pattern '\(error.pattern)': "
                + error.reason
        case .success(let policy):
            guard !policy.isPermitted(key) else { return nil }
            return "Access to \(key) is denied (permitted keys: "
                + policy.patterns.joined(separator: ", ") + "; set \(environmentVariable) to change them)"
        }
    }
}

extension TemplateHelpers {
    /// `systemValue key='NAME' [type='ENVIRONMENT'|'PROPERTY'] [default=...]`, as WireMock's
    /// SystemValueHelper, restricted by ``SystemKeyPolicy``; `hostname`, this machine's name.
    static let system: [String: Function] = [
        "systemValue": { call throws(TemplateError) in
            let key = call.hashText("key") ?? ""
            let type = call.hashText("type") ?? "ENVIRONMENT"
            if let problem = systemValueProblem(key: key, type: type) { throw call.wireMockFailure(problem) }
            let value = type == "ENVIRONMENT" ? PlatformEnvironment.value(key) : SystemProperties.value(key)
            return value.map(TemplateValue.string) ?? call.hash("default") ?? .null
        },
        "hostname": { _ throws(TemplateError) in .string(PlatformEnvironment.hostName) },
    ]

    /// What is wrong with a `systemValue` call's key and type, if anything.
    static func systemValueProblem(key: String, type: String) -> String? {
        guard !key.isEmpty else { return "The key cannot be empty" }
        guard type == "ENVIRONMENT" || type == "PROPERTY" else {
            return "'systemValue' expects type='ENVIRONMENT' or type='PROPERTY', found '\(type.prefix(40))'"
        }
        return SystemKeyPolicy.refusal(key)
    }
}

/// What `systemValue type='PROPERTY'` reads: petmock has no Java system properties, so the
/// standard ones it can answer truly (`os.name`, `os.arch`, `user.dir`, `user.home`,
/// `java.io.tmpdir`, `file.separator`, `path.separator`, `line.separator`); others are unset.
enum SystemProperties {
    static func value(_ key: String) -> String? {
        switch key {
        case "os.name":
            #if os(Linux)
            return "Linux"
            #else
            return "Mac OS X"
            #endif
        case "os.arch":
            #if arch(x86_64)
            return "amd64"
            #elseif arch(arm64)
            return "aarch64"
            #else
            return nil
            #endif
        case "user.dir": return FileManager.default.currentDirectoryPath
        case "user.home": return PlatformEnvironment.value("HOME")
        case "java.io.tmpdir": return PlatformEnvironment.value("TMPDIR") ?? "/tmp"
        case "file.separator": return "/"
        case "path.separator": return ":"
        case "line.separator": return "\n"
        default: return nil
        }
    }
}
