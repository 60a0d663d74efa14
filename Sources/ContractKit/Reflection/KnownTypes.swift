import APISchema
import Foundation
import JSONKit

/// Schemas and placeholder values for types whose JSON form is not what their `init(from:)`
/// asks for (Foundation types, which JSONDecoder treats specially) or is fixed (scalars).
enum KnownTypes {
    static func schema(for type: any Decodable.Type, conventions: DecodingConventions) -> Schema? {
        let typeName = SwiftTypeName.of(type)
        switch type {
        case is String.Type: return Schema(types: [.string])
        case is Bool.Type: return Schema(types: [.boolean])
        case is Int.Type, is Int64.Type: return Schema(types: [.integer], format: "int64")
        case is Int32.Type: return Schema(types: [.integer], format: "int32")
        case is Int8.Type, is Int16.Type, is UInt.Type, is UInt8.Type, is UInt16.Type, is UInt32.Type, is UInt64.Type:
            return Schema(types: [.integer], swiftType: typeName)
        case is Double.Type: return Schema(types: [.number], format: "double")
        case is Float.Type: return Schema(types: [.number], format: "float")
        case is Decimal.Type: return Schema(types: [.number], swiftType: typeName)
        case is Date.Type:
            return conventions.dateSchema
        case is URL.Type: return Schema(types: [.string], format: "uri")
        case is UUID.Type: return Schema(types: [.string], format: "uuid")
        case is Data.Type:
            return conventions.dataSchema
        default: break
        }
        if let cases = type as? any CaseIterable.Type {
            return enumSchema(cases, typeName: typeName)
        }
        return nil
    }

    private static func enumSchema(_ type: any CaseIterable.Type, typeName: String) -> Schema? {
        var values: [JSONValue] = []
        for value in type.allCases as any Collection {
            guard let raw = (value as? any RawRepresentable)?.rawValue else { return nil }
            switch raw {
            case let text as String: values.append(.string(text))
            case let number as Int: values.append(.int(Int64(number)))
            default: return nil
            }
        }
        guard let first = values.first else { return nil }
        return Schema(types: [first.kind], enumValues: values, swiftType: typeName)
    }

    /// A value of the type when it is one of the known types, or the first case of an enum.
    static func placeholder<T>(_ type: T.Type) -> T? {
        let value: Any?
        switch type {
        case is String.Type: value = ""
        case is Bool.Type: value = false
        case is Int.Type: value = 0 as Int
        case is Int8.Type: value = 0 as Int8
        case is Int16.Type: value = 0 as Int16
        case is Int32.Type: value = 0 as Int32
        case is Int64.Type: value = 0 as Int64
        case is UInt.Type: value = 0 as UInt
        case is UInt8.Type: value = 0 as UInt8
        case is UInt16.Type: value = 0 as UInt16
        case is UInt32.Type: value = 0 as UInt32
        case is UInt64.Type: value = 0 as UInt64
        case is Double.Type: value = 0 as Double
        case is Float.Type: value = 0 as Float
        case is Decimal.Type: value = Decimal(0)
        case is Date.Type: value = Date(timeIntervalSince1970: 0)
        case is URL.Type: value = URL(fileURLWithPath: "/")
        case is UUID.Type: value = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
        case is Data.Type: value = Data()
        default:
            if let cases = type as? any CaseIterable.Type {
                value = (cases.allCases as any Collection).first { _ in true }
            } else {
                value = nil
            }
        }
        return value as? T
    }
}
