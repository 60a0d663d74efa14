/// The walk of a folder tree both file watchers make: ``InotifyFileWatcher`` to add its
/// watches, ``FileTreeSnapshot`` to stamp each entry. Names starting with `.` are skipped;
/// each entry goes to the visitor, which says whether to enter it, pass it, or end the walk.
enum FileTreeWalk {
    /// What the walk does after an entry was visited.
    enum Step {
        /// Enters the entry (a folder): its entries are visited next, one level down.
        case enter
        /// Goes on with the next entry.
        case pass
        /// Ends the whole walk.
        case stop
    }

    /// Visits the entries below `folder` depth first, in the order the folder lists them;
    /// `visit` gets each one's path and level (0 for `folder`'s own entries). A folder that
    /// cannot be listed has no entries. False when the visitor stopped the walk.
    @discardableResult
    static func walk(_ folder: String, level: Int = 0, _ visit: (_ path: String, _ level: Int) -> Step) -> Bool {
        guard let names = try? FileSystem.names(in: folder) else { return true }
        for name in names where !name.hasPrefix(".") {
            let path = FileSystem.join(folder, name)
            switch visit(path, level) {
            case .stop: return false
            case .pass: continue
            case .enter: guard walk(path, level: level + 1, visit) else { return false }
            }
        }
        return true
    }
}
