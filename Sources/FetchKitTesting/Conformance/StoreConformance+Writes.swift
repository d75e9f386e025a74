@_spi(Backend) import FetchKit
import FetchKitFixtures
import Foundation

/// The write checks: inserts, updates, upserts and deletes of records and rows, bulk writes, rollbacks and
/// fetches inside a write, against the seeded fixtures.
extension StoreConformance {
    typealias Todo = Fixtures.TodoRecord
    typealias Category = Fixtures.CategoryRecord
    typealias Note = Fixtures.NoteRecord

    /// The write checks.
    static var writeChecks: [Check] {
        [
            Check(
                name: "insert by record fills the assigned key; an explicit key is kept",
                body: { try await $0.checkInsertRecords(on: $1) }),
            Check(
                name: "insert by row returns the key; absent attributes take their defaults",
                body: { try await $0.checkInsertRows(on: $1) }),
            Check(
                name: "update by record writes every attribute; a missing row is an error",
                body: { try await $0.checkUpdateRecords(on: $1) }),
            Check(
                name: "update and delete by key report whether the row existed",
                body: { try await $0.checkByKey(on: $1) }),
            Check(name: "upsert by record and by row inserts or updates", body: { try await $0.checkUpserts(on: $1) }),
            Check(
                name: "bulk update and delete by predicate count their rows", body: { try await $0.checkBulk(on: $1) }),
            Check(
                name: "writes by predicates through relationships; row upserts keep what they do not name",
                body: { try await $0.checkRelationshipWrites(on: $1) }),
            Check(
                name: "a failing write rolls back whole; the store still works",
                body: { try await $0.checkRollback(on: $1) }),
            Check(
                name: "fetches inside a write see its uncommitted changes",
                body: { try await $0.checkFetchInsideWrite(on: $1) })
        ]
    }

    private func todos(_ store: any PersistentStore) async throws -> [Todo] {
        try await store.fetch(FetchRequest(Todo.self, sortDescriptors: [.ascending("id")]), as: Todo.self)
    }

    private func count(_ entity: String, _ store: any PersistentStore) async throws -> Int {
        try await store.count(FetchRequest(entity: entity))
    }

    /// Runs `write`, which must fail, and returns its error.
    private func failure(_ what: String, _ write: () async throws -> Void) async throws -> any Error {
        do {
            try await write()
        } catch {
            return error
        }
        throw ConformanceFailure("\(what) did not fail")
    }

    func checkInsertRecords(on store: any PersistentStore) async throws {
        let (assigned, explicit) = try await store.write { tx in
            (try tx.insert(Todo(title: "new")), try tx.insert(Todo(id: 100, title: "explicit")))
        }
        try ConformanceFailure.require(assigned.id == 11 && assigned.title == "new", "assigned \(assigned)")
        try ConformanceFailure.require(explicit.id == 100, "explicit \(explicit)")
        // The next key the store assigns is above every key present, chosen or assigned.
        let next = try await store.write { tx in try tx.insert(Todo(title: "next")) }
        try ConformanceFailure.require(
            next.id == 101, "after key 100 the store assigned \(String(describing: next.id))")
        try ConformanceFailure.require(try await count("Todo", store) == 13, "todo count")
    }

    func checkInsertRows(on store: any PersistentStore) async throws {
        let key = try await store.write { tx in try tx.insert(["title": "row todo"], into: "Todo") }
        try ConformanceFailure.require(key == .integer(11), "row insert returned \(key)")
        let textKey = try await store.write { tx in try tx.insert(["slug": "a", "body": "b"], into: "Note") }
        try ConformanceFailure.require(textKey == .text("a"), "text key \(textKey)")
        let rows = try await store.fetch(
            FetchRequest(entity: "Todo", predicate: try FetchPredicate(format: "id == %d", 11)))
        try ConformanceFailure.require(
            rows.first?["priority"] == .integer(0) && rows.first?["done"] == .bool(false),
            "defaults: \(String(describing: rows.first))")
        let notes = try await store.fetch(FetchRequest(Note.self), as: Note.self)
        try ConformanceFailure.require(notes == [Note(slug: "a", body: "b", pinned: false)], "notes \(notes)")
    }

    func checkUpdateRecords(on store: any PersistentStore) async throws {
        guard var todo = Fixtures.sampleTodos.first else { return }
        todo.title = "Rewritten"
        todo.notes = nil
        todo.ordering = -0.0
        try await store.write { [todo] tx in try tx.update(todo) }
        let fetched = try await todos(store)
        try ConformanceFailure.require(fetched.first == todo, "updated record \(String(describing: fetched.first))")
        try ConformanceFailure.require(fetched.first?.ordering?.sign == .minus, "-0.0 kept its sign")
        _ = try await failure("updating a missing row") {
            try await store.write { tx in try tx.update(Todo(id: 999, title: "ghost")) }
        }
        _ = try await failure("updating a record without a key") {
            try await store.write { tx in try tx.update(Todo(title: "no key")) }
        }
        try ConformanceFailure.require(
            try await todos(store).dropFirst().elementsEqual(Fixtures.sampleTodos.dropFirst()), "other rows unchanged")
    }

    func checkByKey(on store: any PersistentStore) async throws {
        let results = try await store.write { tx in
            [
                try tx.update("Todo", key: 2, set: ["done": false, "priority": 9]),
                try tx.update("Todo", key: 999, set: ["done": false]),
                try tx.delete("Todo", key: 3),
                try tx.delete("Todo", key: 3),
                try tx.delete(Todo(id: 4, title: "Buy milk")),
                try tx.delete(Todo(title: "never inserted")),
                try tx.update("Note", key: "none", set: ["body": "x"])
            ]
        }
        try ConformanceFailure.require(results == [true, false, true, false, true, false, false], "results \(results)")
        let remaining = try await todos(store)
        try ConformanceFailure.require(
            remaining.map(\.id) == [1, 2, 5, 6, 7, 8, 9, 10], "remaining \(remaining.map(\.id))")
        let second = remaining.dropFirst().first
        try ConformanceFailure.require(
            second?.priority == 9 && second?.done == false, "todo 2 \(String(describing: second))")
    }

    func checkUpserts(on store: any PersistentStore) async throws {
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
        try ConformanceFailure.require(
            categories.map(\.name) == ["Office", "Home", "Errands", "Garden", "No key"]
                && categories.first?.position == 7,
            "categories \(categories)")
        let notes = try await store.fetch(FetchRequest(Note.self, sortDescriptors: [.ascending("slug")]), as: Note.self)
        try ConformanceFailure.require(
            notes == [Note(slug: "m", body: "updated", pinned: true), Note(slug: "n", body: "second", pinned: true)],
            "notes \(notes)")
    }

    func checkBulk(on store: any PersistentStore) async throws {
        let (updated, deleted) = try await store.write { tx in
            (
                try tx.update("Todo", where: try FetchPredicate(format: "done == YES"), set: ["priority": 0]),
                try tx.delete("Todo", where: try FetchPredicate(format: "category.name == %@", "Home"))
            )
        }
        try ConformanceFailure.require(updated == 4 && deleted == 2, "updated \(updated), deleted \(deleted)")
        let done = try await store.fetch(
            FetchRequest(Todo.self, predicate: try FetchPredicate(format: "done == YES")), as: Todo.self)
        try ConformanceFailure.require(done.allSatisfy { $0.priority == 0 }, "done todos \(done)")
        try ConformanceFailure.require(try await count("Todo", store) == 8, "todo count")
        let none = try await store.write { tx in try tx.delete("Todo", where: .false) }
        let all = try await store.write { tx in try tx.delete("Todo", where: .true) }
        try ConformanceFailure.require(none == 0 && all == 8, "deleted \(none) then \(all)")
    }

    func checkRollback(on store: any PersistentStore) async throws {
        let before = try await count("Category", store)
        _ = try await failure("a duplicate key") {
            try await store.write { tx in
                try tx.insert(Category(id: 11, name: "a"))
                try tx.insert(Category(id: 12, name: "b"))
                try tx.insert(Category(id: 13, name: "c"))
                try tx.insert(Category(id: 11, name: "duplicate"))
            }
        }
        try ConformanceFailure.require(try await count("Category", store) == before, "the failed write left rows")
        let dialect = store.dialect
        let error = try await failure("a write that throws") {
            try await store.write { tx in
                try tx.insert(Category(id: 11, name: "a"))
                if dialect.runsSQL {
                    _ = try tx.execute("UPDATE category SET name = \(dialect.placeholder(1))", ["changed"])
                } else {
                    _ = try tx.update("Category", where: .true, set: ["name": "changed"])
                }
                throw DeliberateRollback()
            }
        }
        try ConformanceFailure.require(error is DeliberateRollback, "the closure's error came back as \(error)")
        let names = try await store.fetch(
            FetchRequest(Category.self, sortDescriptors: [.ascending("id")]), as: Category.self
        )
        .map(\.name)
        try ConformanceFailure.require(
            names == Fixtures.sampleCategories.map(\.name), "categories after rollback \(names)")
        _ = try await store.write { tx in try tx.insert(Category(id: 11, name: "after")) }
        try ConformanceFailure.require(
            try await count("Category", store) == before + 1, "the store works after rollbacks")
    }

    func checkFetchInsideWrite(on store: any PersistentStore) async throws {
        let (rows, records) = try await store.write { tx in
            try tx.delete("Todo", where: .true)
            try tx.insert(Todo(title: "only"))
            return (try tx.fetch(FetchRequest(entity: "Todo")), try tx.fetch(FetchRequest(Todo.self), as: Todo.self))
        }
        try ConformanceFailure.require(
            rows.count == 1 && records.map(\.title) == ["only"], "inside the write: \(records)")
    }

    func checkRelationshipWrites(on store: any PersistentStore) async throws {
        func ids(_ entity: String, _ format: String) async throws -> [Int64] {
            try await store.fetch(
                FetchRequest(
                    entity: entity, predicate: try FetchPredicate(format: format),
                    sortDescriptors: [.ascending("id")])
            )
            .map { $0["id", as: Int64.self] ?? -1 }
        }
        let updated = try await store.write { tx in
            try tx.update("Todo", where: try FetchPredicate(format: "category.name == 'Home'"), set: ["done": true])
        }
        try ConformanceFailure.require(updated == 2, "updated through a to-one: \(updated)")
        let done = try await ids("Todo", "done == YES")
        try ConformanceFailure.require(done == [2, 5, 6, 8, 10], "done \(done)")
        let positioned = try await store.write { tx in
            try tx.update(
                "Category", where: try FetchPredicate(format: "ANY todos.priority >= 5"), set: ["position": 9])
        }
        let nine = try await ids("Category", "position == 9")
        try ConformanceFailure.require(
            positioned == 1 && nine == [2], "updated through a to-many: \(positioned), \(nine)")
        let deleted = try await store.write { tx in
            try tx.delete("Todo", where: try FetchPredicate(format: "category.position == 2"))
        }
        let left = try await ids("Todo", "TRUEPREDICATE")
        try ConformanceFailure.require(
            deleted == 2 && left == [1, 2, 5, 6, 7, 8, 9, 10], "deleted \(deleted), left \(left)")
        try await store.write { tx in
            try tx.upsert(["id": 1, "title": "Changed"], into: "Todo")
            try tx.upsert(["id": 12, "title": "New"], into: "Todo")
        }
        let rows = try await store.fetch(
            FetchRequest(
                entity: "Todo", predicate: try FetchPredicate(format: "SELF IN {1, 12}"),
                propertiesToFetch: ["title", "priority"]))
        try ConformanceFailure.require(
            rows.map { $0["title"] ?? .null } == [.text("Changed"), .text("New")]
                && rows.map { $0["priority"] ?? .null } == [.integer(3), .integer(0)],
            "upserted rows \(rows)")
    }
}
