/// The Swift runtime's name of an enum case (what `print` shows for a case that has no
/// `description` of its own); nil for a value that is not an enum case.
@_silgen_name("swift_EnumCaseName")
private func swiftEnumCaseName<T>(_ value: T) -> UnsafePointer<CChar>?

/// The Swift property a coding key stands for.
///
/// A `CodingKeys` enum names its cases after the properties they decode (that is how the
/// compiler synthesises `Decodable`, and how hand-written keys are conventionally named), and
/// its raw value is the JSON key. The case name is read from the runtime, since `CodingKey`'s
/// `description` shows only the string value.
enum CodingKeyName {
    /// The enum case name of a coding key, or nil for a key that is not an enum case.
    static func caseName<Key: CodingKey>(of key: Key) -> String? {
        swiftEnumCaseName(key).map { String(cString: $0) }
    }
}
