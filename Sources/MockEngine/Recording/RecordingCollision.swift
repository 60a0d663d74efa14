/// A file the recorder would have written but left alone, and where it wrote instead.
public struct RecordingCollision: Sendable, Hashable, CustomStringConvertible {
    /// The path it wanted.
    public var wanted: String
    /// What is there: `a hand-written mapping`, `a symbolic link`, ...
    public var occupant: String
    /// The path it wrote instead.
    public var writtenTo: String

    /// Creates a collision report.
    public init(wanted: String, occupant: String, writtenTo: String) {
        self.wanted = wanted
        self.occupant = occupant
        self.writtenTo = writtenTo
    }

    public var description: String { "kept \(wanted) (\(occupant)); wrote \(writtenTo) instead" }
}
