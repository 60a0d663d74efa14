import Platform
import SQLiteKit

/// Pets and vets in one SQLite database, safe to call from any thread.
///
/// Every write runs in its own transaction, so a failed write leaves nothing half-done
/// and a process killed mid-write leaves the database as it was before that write.
// @unchecked Sendable: the one non-Sendable member, `connection`, is only touched while
// `lock` is held (see `read` and `write`), which serialises every use of it.
package final class PetStore: @unchecked Sendable {
    private let connection: SQLiteConnection
    private let lock = Locked(())

    /// Opens the database at `path` (`:memory:` for a private one), creating the tables
    /// and inserting `seed` the first time the file is used.
    package init(path: String, seed: PetAPISeed = .standard) throws(PetStoreError) {
        do {
            let db = try SQLiteConnection(path: path)
            try db.transaction {
                try db.execute(
                    """
                    CREATE TABLE IF NOT EXISTS vets (
                        id INTEGER PRIMARY KEY, first_name TEXT NOT NULL, last_name TEXT NOT NULL, title TEXT);
                    CREATE TABLE IF NOT EXISTS pets (
                        id INTEGER PRIMARY KEY, first_name TEXT NOT NULL, last_name TEXT, vet_id INTEGER NOT NULL);
                    CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
                    """)
                // Seed once per file: a database whose rows were all deleted stays empty.
                let seeded = try db.statement("SELECT value FROM meta WHERE key = 'seeded'").rows()
                guard seeded.isEmpty else { return }
                for vet in seed.vets {
                    try db.statement("INSERT INTO vets (id, first_name, last_name, title) VALUES (?, ?, ?, ?)")
                        .run(PetStore.values(vet.fields, id: vet.id))
                }
                for pet in seed.pets {
                    try db.statement("INSERT INTO pets (id, first_name, last_name, vet_id) VALUES (?, ?, ?, ?)")
                        .run(PetStore.values(pet.fields, id: pet.id))
                }
                try db.statement("INSERT INTO meta (key, value) VALUES ('seeded', '1')").run()
            }
            connection = db
        } catch {
            throw PetStore.storeError(error)
        }
    }

    // MARK: pets

    /// Every pet, by id.
    package func pets() throws(PetStoreError) -> [PetRecord] {
        try read { db in
            try db.statement("SELECT id, first_name, last_name, vet_id FROM pets ORDER BY id").rows().compactMap(
                PetStore.pet)
        }
    }

    /// The pet with this id, or nil.
    package func pet(id: Int64) throws(PetStoreError) -> PetRecord? {
        try read { db in
            try db.statement("SELECT id, first_name, last_name, vet_id FROM pets WHERE id = ?").rows([.integer(id)])
                .first.flatMap(PetStore.pet)
        }
    }

    /// Inserts a pet whose vet exists and returns it with its new id.
    package func createPet(_ fields: PetFields) throws(PetStoreError) -> PetRecord {
        try write { db in
            try PetStore.requireVet(fields.vetId, in: db)
            try db.statement("INSERT INTO pets (first_name, last_name, vet_id) VALUES (?, ?, ?)")
                .run(PetStore.values(fields, id: nil))
            return PetRecord(id: db.lastInsertRowID, fields: fields)
        }
    }

    /// Replaces a pet's fields; nil when there is no such pet.
    package func updatePet(id: Int64, _ fields: PetFields) throws(PetStoreError) -> PetRecord? {
        try write { db in
            try PetStore.requireVet(fields.vetId, in: db)
            try db.statement("UPDATE pets SET first_name = ?, last_name = ?, vet_id = ? WHERE id = ?")
                .run(PetStore.values(fields, id: nil) + [.integer(id)])
            return db.changes == 0 ? nil : PetRecord(id: id, fields: fields)
        }
    }

    /// Deletes a pet; false when there was no such pet.
    package func deletePet(id: Int64) throws(PetStoreError) -> Bool {
        try write { db in
            try db.statement("DELETE FROM pets WHERE id = ?").run([.integer(id)])
            return db.changes > 0
        }
    }

    // MARK: vets

    /// Every vet, by id.
    package func vets() throws(PetStoreError) -> [VetRecord] {
        try read { db in
            try db.statement("SELECT id, first_name, last_name, title FROM vets ORDER BY id").rows().compactMap(
                PetStore.vet)
        }
    }

    /// The vet with this id, or nil.
    package func vet(id: Int64) throws(PetStoreError) -> VetRecord? {
        try read { db in
            try db.statement("SELECT id, first_name, last_name, title FROM vets WHERE id = ?").rows([.integer(id)])
                .first.flatMap(PetStore.vet)
        }
    }

    /// Inserts a vet and returns it with its new id.
    package func createVet(_ fields: VetFields) throws(PetStoreError) -> VetRecord {
        try write { db in
            try db.statement("INSERT INTO vets (first_name, last_name, title) VALUES (?, ?, ?)")
                .run(PetStore.values(fields, id: nil))
            return VetRecord(id: db.lastInsertRowID, fields: fields)
        }
    }

    /// Replaces a vet's fields; nil when there is no such vet.
    package func updateVet(id: Int64, _ fields: VetFields) throws(PetStoreError) -> VetRecord? {
        try write { db in
            try db.statement("UPDATE vets SET first_name = ?, last_name = ?, title = ? WHERE id = ?")
                .run(PetStore.values(fields, id: nil) + [.integer(id)])
            return db.changes == 0 ? nil : VetRecord(id: id, fields: fields)
        }
    }

    /// Deletes a vet, leaving pets that name it in place (they then point at a missing vet);
    /// false when there was no such vet.
    package func deleteVet(id: Int64) throws(PetStoreError) -> Bool {
        try write { db in
            try db.statement("DELETE FROM vets WHERE id = ?").run([.integer(id)])
            return db.changes > 0
        }
    }

    /// Runs SQLite's integrity check; "ok" when the file is sound.
    package func integrityCheck() throws(PetStoreError) -> String {
        try read { db in
            let rows = try db.statement("PRAGMA integrity_check").rows()
            return rows.compactMap { row -> String? in
                if case .text(let text) = row.first { return text }
                return nil
            }.joined(separator: "; ")
        }
    }

    // MARK: plumbing

    private func read<T: Sendable>(_ body: (SQLiteConnection) throws -> T) throws(PetStoreError) -> T {
        do {
            return try lock.withLock { _ in try body(connection) }
        } catch {
            throw PetStore.storeError(error)
        }
    }

    private func write<T: Sendable>(_ body: (SQLiteConnection) throws -> T) throws(PetStoreError) -> T {
        do {
            return try lock.withLock { _ in try connection.transaction { try body(connection) } }
        } catch {
            throw PetStore.storeError(error)
        }
    }

    private static func storeError(_ error: any Error) -> PetStoreError {
        switch error {
        case let error as PetStoreError: error
        case let error as SQLiteError: .database(error)
        default: .database(SQLiteError(code: -1, message: "\(error)"))
        }
    }

    private static func requireVet(_ id: Int64, in db: SQLiteConnection) throws {
        if try db.statement("SELECT 1 FROM vets WHERE id = ?").rows([.integer(id)]).isEmpty {
            throw PetStoreError.unknownVet(id)
        }
    }

    private static func values(_ fields: PetFields, id: Int64?) -> [SQLiteStatement.Value] {
        (id.map { [.integer($0)] } ?? []) + [
            .text(fields.firstName), fields.lastName.map { .text($0) } ?? .null, .integer(fields.vetId),
        ]
    }

    private static func values(_ fields: VetFields, id: Int64?) -> [SQLiteStatement.Value] {
        (id.map { [.integer($0)] } ?? []) + [
            .text(fields.firstName), .text(fields.lastName), fields.title.map { .text($0) } ?? .null,
        ]
    }

    private static func pet(_ row: [SQLiteStatement.Value]) -> PetRecord? {
        guard row.count == 4, case .integer(let id) = row[0], case .text(let first) = row[1],
            case .integer(let vetId) = row[3]
        else { return nil }
        return PetRecord(id: id, fields: PetFields(firstName: first, lastName: text(row[2]), vetId: vetId))
    }

    private static func vet(_ row: [SQLiteStatement.Value]) -> VetRecord? {
        guard row.count == 4, case .integer(let id) = row[0], case .text(let first) = row[1],
            case .text(let last) = row[2]
        else { return nil }
        return VetRecord(id: id, fields: VetFields(firstName: first, lastName: last, title: text(row[3])))
    }

    private static func text(_ value: SQLiteStatement.Value) -> String? {
        if case .text(let text) = value { return text }
        return nil
    }
}
