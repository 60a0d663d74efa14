import Foundation
import Platform
@_spi(Reflection) import Swift

#if canImport(FoundationNetworking)
import FoundationNetworking

/// FoundationNetworking's `URLSessionTask.session`, which it keeps to itself, read from a task.
///
/// ``session(of:)`` reflects the task: the field is found once per task class by label, then
/// read by position. ``sessionAddress(of:)`` is the fast path for a host's own session: the
/// field's offset comes from the runtime's field metadata (`_forEachField`), it is checked
/// once against reflection, and then only the reference's bits are read and compared with
/// the hosts' sessions — never turned into a reference. Reflecting every request cost about
/// a fifth of a stubbed round trip.
enum StoredSessionField {
    private enum FastPath {
        case unknown
        case offset(Int)
        case unavailable
    }

    private static let fastPath = Locked(FastPath.unknown)

    /// The address of the session `task` belongs to, as bits to compare, or nil when the fast
    /// path is unavailable (a FoundationNetworking whose task does not keep the session as checked).
    static func sessionAddress(of task: URLSessionTask) -> UInt? {
        switch fastPath.withLock({ $0 }) {
        case .offset(let offset):
            return load(task, at: offset)
        case .unavailable:
            return nil
        case .unknown:
            let expected = session(of: task).map { UInt(bitPattern: ObjectIdentifier($0)) }
            let offset = sessionFieldOffset()
            guard let expected, let offset, load(task, at: offset) == expected else {
                fastPath.withLock { $0 = .unavailable }
                return nil
            }
            fastPath.withLock { $0 = .offset(offset) }
            return expected
        }
    }

    /// The first word of the stored `session` (an optional class-bound existential: the
    /// reference's bits, 0 for nil). The offset is the runtime's own, inside the instance.
    private static func load(_ task: URLSessionTask, at offset: Int) -> UInt {
        UnsafeRawPointer(Unmanaged.passUnretained(task).toOpaque()).load(fromByteOffset: offset, as: UInt.self)
    }

    /// Where `URLSessionTask` stores `session`, from the runtime's field metadata.
    private static func sessionFieldOffset() -> Int? {
        var found: Int?
        // `_EachFieldOptions.classType` (1 << 0), spelled by value: the static is a `var`.
        _ = _forEachField(of: URLSessionTask.self, options: _EachFieldOptions(rawValue: 1 << 0)) { name, offset, _, _ in
            guard String(cString: name) == "session" else { return true }
            found = offset
            return false
        }
        return found
    }

    private struct Place {
        /// How many superclass mirrors up the field is.
        var depth: Int
        /// Its position among that mirror's children.
        var offset: Int
    }

    private static let places = Locked<[ObjectIdentifier: Place]>([:])

    static func session(of task: URLSessionTask) -> URLSession? {
        let key = ObjectIdentifier(type(of: task))
        if let place = places.withLock({ $0[key] }), let child = child(of: task, at: place), child.label == "session" {
            return child.value as? URLSession
        }
        var mirror: Mirror? = Mirror(reflecting: task)
        var depth = 0
        while let current = mirror {
            for (offset, child) in current.children.enumerated() where child.label == "session" {
                places.withLock { $0[key] = Place(depth: depth, offset: offset) }
                return child.value as? URLSession
            }
            mirror = current.superclassMirror
            depth += 1
        }
        return nil
    }

    private static func child(of task: URLSessionTask, at place: Place) -> Mirror.Child? {
        var mirror = Mirror(reflecting: task)
        for _ in 0..<place.depth {
            guard let superclass = mirror.superclassMirror else { return nil }
            mirror = superclass
        }
        let children = mirror.children
        guard place.offset < children.count else { return nil }
        return children[children.index(children.startIndex, offsetBy: place.offset)]
    }
}
#endif
