import FetchKit
import FetchKitDrivers
@testable import FetchKitSQLite
import FetchKitTesting
import Foundation
import Testing

@Suite("SQLite store: writes and transactions")
struct SQLiteStoreWriteTests {
    typealias Task = Fixtures.TaskRecord
    typealias Category = Fixtures.CategoryRecord
    typealias Note = Fixtures.NoteRecord

    private func seededStore() async throws -> SQLiteStore {
        let store = try await SQLiteStore.inMemory(schema: Fixtures.schema)
        try await store.seed()
        return store
    }

    @Test("insert by record fills the assigned key; an explicit key is kept")
    func insertRecords() async throws {
        let store = try await seededStore()
        let (assigned, explicit) = try await store.write { tx in
            (try tx.insert(Task(title: "new")), try tx.insert(Task(id: 100, title: "explicit")))
        }
        #expect(assigned.id == 11)
        #expect(assigned.title == "new")
        #expect(explicit.id == 100)
        #expect(try await store.count(of: "Task") == 12)
        await store.close()
    }

    @Test("insert by row returns the key; absent attributes take their defaults")
    func insertRows() async throws {
        let store = try await seededStore()
        let key = try await store.write { tx in try tx.insert(["title": "row task"], into: "Task") }
        #expect(key == .integer(11))
        let textKey = try await store.write { tx in try tx.insert(["slug": "a", "body": "b"], into: "Note") }
        #expect(textKey == .text("a"))
        let rows = try await store.fetch(
            FetchRequest(entity: "Task", predicate: try FetchPredicate(format: "id == %d", 11)))
        let row = try #require(rows.first)
        #expect(row["priority"] == .integer(0))
        #expect(row["done"] == .bool(false))
        let notes = try await store.fetch(FetchRequest(Note.self), as: Note.self)
        #expect(notes == [Note(slug: "a", body: "b", pinned: false)])
        await store.close()
    }

    @Test("update by record writes every attribute; a missing row is an error")
    func updateRecords() async throws {
        let store = try await seededStore()
        var task = try #require(Fixtures.sampleTasks.first)
        task.title = "Rewritten"
        task.notes = nil
        task.ordering = -0.0
        try await store.write { [task] tx in try tx.update(task) }
        let fetched = try await store.allTasks()
        #expect(fetched.first == task)
        await #expect(throws: FetchKitError.self) {
            try await store.write { tx in try tx.update(Task(id: 999, title: "ghost")) }
        }
        await #expect(throws: FetchKitError.self) {
            try await store.write { tx in try tx.update(Task(title: "no key")) }
        }
        #expect(try await store.allTasks().dropFirst().elementsEqual(Fixtures.sampleTasks.dropFirst()))
        await store.close()
    }

    @Test("update and delete by key report whether the row existed")
    func byKey() async throws {
        let store = try await seededStore()
        let results = try await store.write { tx in
            [
                try tx.update("Task", key: 2, set: ["done": false, "priority": 9]),
                try tx.update("Task", key: 999, set: ["done": false]),
                try tx.delete("Task", key: 3),
                try tx.delete("Task", key: 3),
                try tx.delete(Task(id: 4, title: "Buy milk")),
                try tx.delete(Task(title: "never inserted")),
                try tx.update("Note", key: "none", set: ["body": "x"]),
            ]
        }
        #expect(results == [true, false, true, false, true, false, false])
        let tasks = try await store.allTasks()
        #expect(tasks.map(\.id) == [1, 2, 5, 6, 7, 8, 9, 10])
        let second = try #require(tasks.dropFirst().first)
        #expect(second.priority == 9 && second.done == false)
        await store.close()
    }

    @Test("upsert by record and by row inserts or updates")
    func upserts() async throws {
        let store = try await seededStore()
        try await store.write { tx in
            try tx.upsert(Category(id: 1, name: "Office", position: 7))
            try tx.upsert(Category(id: 4, name: "Garden", position: 3))
            try tx.upsert(Category(name: "No key"))
            try tx.upsert(Note(slug: "n", body: "first"))
            try tx.upsert(Note(slug: "n", body: "second", pinned: true))
            try tx.upsert(["slug": "m", "body": "row", "pinned": true], into: "Note")
            try tx.upsert(["slug": "m", "body": "updated"], into: "Note")
        }
        let categories = try await store.fetch(
            FetchRequest(Category.self, sortDescriptors: [.ascending("id")]), as: Category.self)
        #expect(categories.map(\.name) == ["Office", "Home", "Errands", "Garden", "No key"])
        #expect(categories.first?.position == 7)
        let notes = try await store.fetch(FetchRequest(Note.self, sortDescriptors: [.ascending("slug")]), as: Note.self)
        #expect(notes == [
            Note(slug: "m", body: "updated", pinned: true), Note(slug: "n", body: "second", pinned: true),
        ])
        await store.close()
    }

    @Test("bulk update and delete by predicate return how many rows changed")
    func bulk() async throws {
        let store = try await seededStore()
        let (updated, deleted) = try await store.write { tx in
            (
                try tx.update("Task", where: try FetchPredicate(format: "done == YES"), set: ["priority": 0]),
                try tx.delete("Task", where: try FetchPredicate(format: "category.name == %@", "Home"))
            )
        }
        #expect(updated == 4)
        #expect(deleted == 2)
        let done = try await store.fetch(
            FetchRequest(Task.self, predicate: try FetchPredicate(format: "done == YES")), as: Task.self)
        #expect(done.allSatisfy { $0.priority == 0 })
        #expect(try await store.count(of: "Task") == 8)
        let none = try await store.write { tx in try tx.delete("Task", where: .false) }
        #expect(none == 0)
        let all = try await store.write { tx in try tx.delete("Task", where: .true) }
        #expect(all == 8)
        await store.close()
    }

    @Test("a failing insert after three good ones rolls back all of them; the store still works")
    func rollbackOnConstraint() async throws {
        let store = try await SQLiteStore.inMemory(schema: Fixtures.schema)
        await #expect(throws: FetchKitError.self) {
            try await store.write { tx in
                try tx.insert(Category(id: 1, name: "a"))
                try tx.insert(Category(id: 2, name: "b"))
                try tx.insert(Category(id: 3, name: "c"))
                try tx.insert(Category(id: 1, name: "duplicate"))
            }
        }
        #expect(try await store.count(of: "Category") == 0)
        await #expect(throws: DeliberateError()) {
            try await store.write { tx in
                try tx.insert(Category(id: 1, name: "a"))
                try tx.execute("UPDATE category SET name = ?", ["changed"])
                throw DeliberateError()
            }
        }
        #expect(try await store.count(of: "Category") == 0)
        try await store.write { tx in try tx.insert(Category(id: 1, name: "after")) }
        #expect(try await store.count(of: "Category") == 1)
        await store.close()
    }

    @Test("constraint violations name the constraint")
    func constraintNames() async throws {
        let store = try await seededStore()
        do {
            try await store.write { tx in try tx.insert(Task(id: 1, title: "dup")) }
            Issue.record("a duplicate key was inserted")
        } catch FetchKitError.constraintViolation(let kind, let name, _) {
            #expect(kind == .primaryKey)
            #expect(name == "task.id")
        }
        do {
            try await store.write { tx in
                try tx.insert(Note(slug: "s", body: "b"))
                try tx.insert(Note(slug: "s", body: "c"))
            }
            Issue.record("a duplicate text key was inserted")
        } catch FetchKitError.constraintViolation(let kind, let name, _) {
            #expect(kind == .primaryKey || kind == .unique)
            #expect(name == "note.slug")
        }
        do {
            try await store.write { tx in try tx.insert(["title": .null], into: "Task") }
            Issue.record("a NULL title was inserted")
        } catch FetchKitError.constraintViolation(let kind, let name, _) {
            #expect(kind == .notNull)
            #expect(name == "task.title")
        }
        do {
            try await store.write { tx in try tx.insert(Task(title: "orphan", categoryID: 42)) }
            Issue.record("a dangling foreign key was inserted")
        } catch FetchKitError.constraintViolation(let kind, _, _) {
            #expect(kind == .foreignKey)
        }
        #expect(try await store.count(of: "Task") == 10)
        await store.close()
    }

    @Test("injection attempts through values are stored verbatim and the table stays intact")
    func injection() async throws {
        let store = try await seededStore()
        let hostile = "x'); DROP TABLE task; --"
        try await store.write { tx in
            try tx.insert(Task(title: hostile, notes: "\"; DELETE FROM task; --"))
            try tx.update("Task", key: 1, set: ["title": .text(hostile)])
            _ = try tx.execute("UPDATE task SET notes = ? WHERE id = ?", [.text(hostile), 2])
        }
        let found = try await store.fetch(
            FetchRequest(Task.self, predicate: try FetchPredicate(format: "title == %@", hostile),
                         sortDescriptors: [.ascending("id")]), as: Task.self)
        #expect(found.map(\.id) == [1, 11])
        #expect(try await store.count(of: "Task") == 11)
        #expect(try await store.allTasks().dropFirst().first?.notes == hostile)
        await store.close()
    }

    @Test("execute runs one raw statement and returns the rows it changed")
    func execute() async throws {
        let store = try await seededStore()
        let (changed, selected, created) = try await store.write { tx in
            (
                try tx.execute("UPDATE task SET priority = priority + 1 WHERE done = ?", [.bool(true)]),
                try tx.execute("SELECT * FROM task", []),
                try tx.execute("CREATE TABLE audit (id INTEGER PRIMARY KEY, what TEXT)", [])
            )
        }
        #expect(changed == 4)
        #expect(selected == 0)
        #expect(created == 0)
        await #expect(throws: FetchKitError.self) {
            try await store.write { tx in try tx.execute("DELETE FROM task WHERE id = 1; DROP TABLE task", []) }
        }
        await #expect(throws: FetchKitError.self) {
            try await store.write { tx in try tx.execute("UPDATE task SET title = ?", []) }
        }
        #expect(try await store.count(of: "Task") == 10)
        await store.close()
    }

    @Test("fetches inside a write see its uncommitted changes")
    func fetchInsideWrite() async throws {
        let store = try await seededStore()
        let (rows, records) = try await store.write { tx in
            try tx.delete("Task", where: .true)
            try tx.insert(Task(title: "only"))
            return (try tx.fetch(FetchRequest(entity: "Task")), try tx.fetch(FetchRequest(Task.self), as: Task.self))
        }
        #expect(rows.count == 1)
        #expect(records.map(\.title) == ["only"])
        await store.close()
    }

    @Test("records of another entity do not decode from a request")
    func wrongEntity() async throws {
        let store = try await seededStore()
        await #expect(throws: FetchKitError.self) {
            _ = try await store.fetch(FetchRequest(entity: "Category"), as: Task.self)
        }
        await store.close()
    }
}

@Suite("SQLite store: raw SQL cannot end the write's transaction")
struct SQLiteTransactionControlTests {
    @Test("transaction control is recognised through case and comments", arguments: [
        ("COMMIT", true), ("  commit transaction", true), ("/* x */ -- y\n END", true), ("BEGIN IMMEDIATE", true),
        ("rollback", true), ("ROLLBACK TRANSACTION", true), ("ROLLBACK TO sp", false),
        ("rollback transaction to savepoint sp", false), ("SAVEPOINT sp", false), ("RELEASE sp", false),
        ("SELECT 'COMMIT'", false), ("UPDATE task SET title = 'BEGIN'", false), ("", false), ("/* open", false),
    ])
    func recognised(sql: String, controls: Bool) {
        #expect(SQLText.controlsTransaction(sql) == controls)
    }

    @Test("COMMIT or ROLLBACK through execute is refused and the write rolls back whole")
    func refused() async throws {
        let store = try await SQLiteStore.inMemory(schema: Fixtures.schema)
        for sql in ["COMMIT", "rollback", "END TRANSACTION", "BEGIN"] {
            await #expect(throws: FetchKitError.self) {
                try await store.write { tx in
                    try tx.insert(Fixtures.CategoryRecord(name: "half"))
                    try tx.execute(sql, [])
                }
            }
        }
        let savepoint = try await store.write { tx in
            try tx.execute("SAVEPOINT sp", [])
            try tx.insert(Fixtures.CategoryRecord(name: "undone"))
            try tx.execute("ROLLBACK TO sp", [])
            try tx.execute("RELEASE sp", [])
            return try tx.insert(Fixtures.CategoryRecord(name: "kept")).name
        }
        #expect(savepoint == "kept")
        #expect(try await store.count(of: "Category") == 1)
        await store.close()
    }
}
