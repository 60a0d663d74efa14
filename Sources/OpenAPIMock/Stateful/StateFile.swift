import JSONKit
import Platform
import SQLiteKit

/// The store's copy on disk (`--state-file`): one SQLite database, in WAL mode with
/// `synchronous=NORMAL`, so that a write's transaction is in the operating system's hands
/// (written to the WAL file, not flushed to the disk) when it commits: a process killed with
/// SIGKILL loses nothing it answered; a power cut may lose the last writes, never the file.
/// Every write is one transaction, committed before the store changes in memory and before the
/// answer is sent. The file names the document's collections, so another document's file is
/// refused.
// @unchecked Sendable: the one non-Sendable member, `connection`, is only used while `lock` is
// held, which serialises every use of it.
final class StateFile: @unchecked Sendable {
    /// What the `meta` table's `format` row holds.
    static let format = "petmock-state 1"

    let path: String
    private let connection: SQLiteConnection
    private let lock = Locked(())
    /// Whether the file was made now (and so holds nothing yet).
    let isNew: Bool

    /// What a file holds: resources in creation order, and the collections' sequences.
    struct Content {
        /// Each resource's JSON as the store's writer makes it.
        var resources: [(collection: String, id: String, encoded: [UInt8])] = []
        var sequences: [(collection: String, next: Int64)] = []
    }

    /// Opens `path` (making it when missing) for a document whose collections are `collections`.
    init(path: String, collections: [String]) throws(StateFileError) {
        self.path = path
        let db: SQLiteConnection
        do {
            db = try SQLiteConnection(path: path)
        } catch {
            // A file that is not SQLite fails on the first statement (setting WAL mode).
            if error.code & 0xFF == 26 /* SQLITE_NOTADB */ || error.code & 0xFF == 11 /* SQLITE_CORRUPT */ {
                throw .corrupt(path: path, reason: error.message)
            }
            throw .unopenable(path: path, reason: error.message)
        }
        connection = db
        let expected = JSONValue.array(collections.map(JSONValue.string)).serialized()
        do {
            let tables = try db.statement("SELECT name FROM sqlite_master WHERE type = 'table'").rows()
                .compactMap { row -> String? in
                    if case .text(let name) = row.first { return name }
                    return nil
                }
            if tables.isEmpty {
                try db.transaction {
                    try db.execute(
                        """
                        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
                        CREATE TABLE resources (seq INTEGER PRIMARY KEY, collection TEXT NOT NULL,
                            id TEXT NOT NULL, body TEXT NOT NULL, UNIQUE (collection, id));
                        CREATE TABLE sequences (collection TEXT PRIMARY KEY, next INTEGER NOT NULL);
                        """)
                    try db.statement("INSERT INTO meta (key, value) VALUES ('format', ?), ('collections', ?)")
                        .run([.text(Self.format), .text(expected)])
                }
                isNew = true
                return
            }
            guard Set(["meta", "resources", "sequences"]).isSubset(of: tables) else {
                throw StateFileError.corrupt(
                    path: path,
                    reason: "expected the tables meta, resources and sequences, found "
                        + tables.sorted().map { "'\($0)'" }.joined(separator: ", "))
            }
            var meta: [String: String] = [:]
            for row in try db.statement("SELECT key, value FROM meta").rows() {
                if case .text(let key) = row.first, row.count == 2, case .text(let value) = row[1] { meta[key] = value }
            }
            guard meta["format"] == Self.format else {
                throw StateFileError.corrupt(
                    path: path,
                    reason: "expected the format '\(Self.format)', found "
                        + (meta["format"].map { "'\($0)'" } ?? "none"))
            }
            let found = meta["collections"].flatMap { try? JSONValue(parsing: $0) }?.arrayValue?
                .compactMap(\.stringValue)
            guard let found else {
                throw StateFileError.corrupt(path: path, reason: "its list of collections is unreadable")
            }
            guard found == collections else {
                throw StateFileError.otherDocument(path: path, expected: collections, found: found)
            }
        } catch let error as StateFileError {
            throw error
        } catch {
            throw .corrupt(path: path, reason: "\(error)")
        }
        isNew = false
    }

    /// Everything the file holds, checked: each body a JSON value.
    func load() throws(StateFileError) -> Content {
        var content = Content()
        do {
            try lock.withLock { _ in
                for row in try connection.statement("SELECT collection, id, body FROM resources ORDER BY seq").rows() {
                    guard row.count == 3, case .text(let collection) = row[0], case .text(let id) = row[1],
                        case .text(let body) = row[2]
                    else { throw StateFileError.corrupt(path: path, reason: "a resource row is not three texts") }
                    let bytes = Array(body.utf8)
                    let value: JSONValue
                    do {
                        value = try JSONValue(parsing: bytes)
                    } catch {
                        throw StateFileError.corrupt(path: path, reason: "resource \(collection)/\(id): \(error)")
                    }
                    content.resources.append((collection, id, value.serializedBytes()))
                }
                for row in try connection.statement("SELECT collection, next FROM sequences").rows() {
                    guard row.count == 2, case .text(let collection) = row[0], case .integer(let next) = row[1] else {
                        throw StateFileError.corrupt(path: path, reason: "a sequence row is not a text and an integer")
                    }
                    content.sequences.append((collection, next))
                }
            }
        } catch let error as StateFileError {
            throw error
        } catch {
            throw .corrupt(path: path, reason: "\(error)")
        }
        return content
    }

    /// Stores a new resource and its collection's sequence, in one transaction.
    func insert(_ encoded: [UInt8], id: String, in collection: String, next: Int64) throws(SQLiteError) {
        try write { connection in
            try connection.statement("INSERT INTO resources (collection, id, body) VALUES (?, ?, ?)")
                .run([.text(collection), .text(id), .text(String(decoding: encoded, as: UTF8.self))])
            try connection.statement(
                "INSERT INTO sequences (collection, next) VALUES (?, ?) "
                    + "ON CONFLICT (collection) DO UPDATE SET next = excluded.next"
            ).run([.text(collection), .integer(next)])
        }
    }

    /// Replaces a resource's body; its place in the order stays.
    func replace(_ encoded: [UInt8], id: String, in collection: String) throws(SQLiteError) {
        try write { connection in
            try connection.statement("UPDATE resources SET body = ? WHERE collection = ? AND id = ?")
                .run([.text(String(decoding: encoded, as: UTF8.self)), .text(collection), .text(id)])
        }
    }

    func remove(id: String, in collection: String) throws(SQLiteError) {
        try write { connection in
            try connection.statement("DELETE FROM resources WHERE collection = ? AND id = ?")
                .run([.text(collection), .text(id)])
        }
    }

    /// Replaces what the file holds (of one collection, else all) with `resources` and `sequences`.
    func reset(
        collection: String?, to resources: [(collection: String, id: String, encoded: [UInt8])],
        sequences: [(collection: String, next: Int64)]
    ) throws(SQLiteError) {
        try write { connection in
            if let collection {
                try connection.statement("DELETE FROM resources WHERE collection = ?").run([.text(collection)])
                try connection.statement("DELETE FROM sequences WHERE collection = ?").run([.text(collection)])
            } else {
                try connection.execute("DELETE FROM resources; DELETE FROM sequences")
            }
            let insert = try connection.statement("INSERT INTO resources (collection, id, body) VALUES (?, ?, ?)")
            for resource in resources {
                insert.reset()
                try insert.run([
                    .text(resource.collection), .text(resource.id),
                    .text(String(decoding: resource.encoded, as: UTF8.self)),
                ])
            }
            let sequence = try connection.statement("INSERT INTO sequences (collection, next) VALUES (?, ?)")
            for entry in sequences {
                sequence.reset()
                try sequence.run([.text(entry.collection), .integer(entry.next)])
            }
        }
    }

    private func write(_ body: (SQLiteConnection) throws -> Void) throws(SQLiteError) {
        do {
            try lock.withLock { _ in try connection.transaction { try body(connection) } }
        } catch let error as SQLiteError {
            throw error
        } catch {
            throw SQLiteError(code: -1, message: "\(error)")
        }
    }
}
