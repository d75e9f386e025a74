@_spi(Backend) import FetchKit
import FetchKitFixtures
import Foundation

/// The raw-SQL and error checks: `execute` runs one statement with bound values and counts what it changed;
/// constraint violations come back typed, whatever the backend calls its constraints; a record type of
/// another entity is refused.
extension StoreConformance {
    /// The raw-SQL and error checks.
    static var rawSQLChecks: [Check] {
        [
            Check(
                name: "execute runs one statement with bound values and returns the rows it changed",
                body: { try await $0.checkExecute(on: $1) }),
            Check(
                name: "constraint violations are typed by kind and name the constraint",
                body: { try await $0.checkConstraintViolations(on: $1) }),
            Check(
                name: "records of another entity do not decode from a request",
                body: { try await $0.checkWrongEntity(on: $1) })
        ]
    }

    func checkExecute(on store: any PersistentStore) async throws {
        let dialect = store.dialect
        guard dialect.runsSQL else { return try await checkRawSQLRefused(on: store) }
        let (changed, selected, created) = try await store.write { tx in
            (
                try tx.execute(
                    "UPDATE todo SET priority = priority + 1 WHERE done = \(dialect.placeholder(1))", [.bool(true)]),
                try tx.execute("SELECT * FROM todo", []),
                try tx.execute(
                    "CREATE TABLE audit_\(UInt32.random(in: 0...UInt32.max)) (id INTEGER PRIMARY KEY, what TEXT)", [])
            )
        }
        try expect(
            changed == 4 && selected == 0 && created == 0,
            "changed \(changed), selected \(selected), created \(created)")
        for (what, sql, bindings) in [
            ("two statements", "DELETE FROM todo WHERE id = 1; DROP TABLE todo", [Value]()),
            ("a missing binding", "UPDATE todo SET title = \(dialect.placeholder(1))", [])
        ] {
            do {
                _ = try await store.write { tx in try tx.execute(sql, bindings) }
                throw ConformanceFailure("\(what) ran")
            } catch is FetchKitError {}
        }
        let count = try await store.count(FetchRequest(entity: "Todo"))
        try expect(count == 10, "refused statements changed the todos: \(count)")
    }

    /// A store that runs no SQL (``SQLDialect/runsSQL`` is `false`) refuses every `execute` with
    /// ``FetchKitError/Code/unsupported``, and the write it was part of rolls back whole.
    func checkRawSQLRefused(on store: any PersistentStore) async throws {
        let before = try await store.count(FetchRequest(entity: "Todo"))
        for sql in ["UPDATE todo SET priority = priority + 1", "SELECT 1", "COMMIT"] {
            do {
                try await store.write { tx in
                    try tx.insert(Fixtures.TodoRecord(title: "before the SQL"))
                    _ = try tx.execute(sql, [])
                }
                throw ConformanceFailure("a store that runs no SQL ran \(sql)")
            } catch let error as FetchKitError {
                try expect(error.code == .unsupported, "\(sql) failed with \(error), not as unsupported")
            }
        }
        let after = try await store.count(FetchRequest(entity: "Todo"))
        try expect(after == before, "the refused writes changed the todos: \(before) then \(after)")
    }

    func checkConstraintViolations(on store: any PersistentStore) async throws {
        let writes: [(String, Set<FetchKitError.Constraint>, @Sendable (any WriteTransaction) throws -> Void)] = [
            (
                "a duplicate integer key", [.primaryKey, .unique],
                { tx in _ = try tx.insert(Fixtures.TodoRecord(id: 1, title: "dup")) }
            ),
            (
                "a duplicate text key", [.primaryKey, .unique],
                { tx in
                    try tx.insert(Fixtures.NoteRecord(slug: "s", body: "b"))
                    try tx.insert(Fixtures.NoteRecord(slug: "s", body: "c"))
                }
            ),
            ("a NULL in a required attribute", [.notNull], { tx in _ = try tx.insert(["title": .null], into: "Todo") }),
            (
                "a dangling foreign key", [.foreignKey],
                { tx in _ = try tx.insert(Fixtures.TodoRecord(title: "orphan", categoryID: 42)) }
            )
        ]
        for (what, kinds, write) in writes {
            do {
                try await store.write(write)
                throw ConformanceFailure("\(what) was written")
            } catch let error as FetchKitError where error.code == .constraintViolation {
                let kind = (error.constraint ?? .other)
                let name = error.constraintName
                try expect(kinds.contains(kind), "\(what) was reported as \(kind)")
                if kind == .foreignKey && !capabilities.namesForeignKeys { continue }
                guard let name, !name.isEmpty else { throw ConformanceFailure("\(what) named no constraint") }
                if kind == .notNull { try expect(name.contains("title"), "the NULL was reported in \(name)") }
            }
        }
        let todos = try await store.count(FetchRequest(entity: "Todo"))
        let notes = try await store.count(FetchRequest(entity: "Note"))
        try expect(todos == 10 && notes == 0, "failed writes left rows: \(todos) todos, \(notes) notes")
    }

    func checkWrongEntity(on store: any PersistentStore) async throws {
        do {
            _ = try await store.fetch(FetchRequest(entity: "Category").erased, as: Fixtures.TodoRecord.self)
            throw ConformanceFailure("Todo records decoded from a Category request")
        } catch is FetchKitError {}
    }
}
