import CSQLite

/// A prepared statement with bound parameters; values are always bound, never spliced into SQL.
package final class SQLiteStatement {
    private let handle: OpaquePointer
    private unowned let connection: SQLiteConnection

    init(_ handle: OpaquePointer, connection: SQLiteConnection) {
        self.handle = handle
        self.connection = connection
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// A value to bind or read.
    package enum Value: Equatable {
        case integer(Int64)
        case text(String)
        case null
    }

    package func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Binds `values` to parameters 1...n.
    package func bind(_ values: [Value]) throws(SQLiteError) {
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let rc: Int32
            switch value {
            case .integer(let number): rc = sqlite3_bind_int64(handle, index, number)
            case .null: rc = sqlite3_bind_null(handle, index)
            case .text(let text):
                // SQLITE_TRANSIENT: SQLite copies the bytes, so the Swift buffer may go away. The
                // length is given, so a NUL inside the text is kept instead of ending it.
                let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
                rc = text.utf8CString.withUnsafeBufferPointer { characters in
                    sqlite3_bind_text(handle, index, characters.baseAddress, Int32(characters.count - 1), transient)
                }
            }
            guard rc == SQLITE_OK else {
                throw SQLiteError(code: rc, message: "cannot bind parameter \(index): \(connection.lastMessage)")
            }
        }
    }

    /// Steps once: true when a row is ready, false when done.
    package func step() throws(SQLiteError) -> Bool {
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw SQLiteError(code: rc, message: connection.lastMessage)
        }
    }

    /// Binds, runs to completion, and returns every row.
    package func rows(_ values: [Value] = []) throws(SQLiteError) -> [[Value]] {
        try bind(values)
        var result: [[Value]] = []
        while try step() {
            let count = sqlite3_column_count(handle)
            var row: [Value] = []
            row.reserveCapacity(Int(count))
            for column in 0..<count {
                row.append(value(at: column))
            }
            result.append(row)
        }
        return result
    }

    /// Binds and runs a statement that returns no rows.
    package func run(_ values: [Value] = []) throws(SQLiteError) {
        try bind(values)
        while try step() {}
    }

    private func value(at column: Int32) -> Value {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, column))
        case SQLITE_NULL: return .null
        default:
            guard let text = sqlite3_column_text(handle, column) else { return .null }
            // By length, not up to the first NUL, so a text with a NUL inside comes back whole.
            let count = Int(sqlite3_column_bytes(handle, column))
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        }
    }
}
