import FetchKit
import FetchKitSQLite
import FetchKitTesting
import Foundation
import Testing

/// The compiler's SQL run on a real SQLite database holding the fixture rows: the statements parse,
/// and they mean what FetchKit's predicates mean (NULL semantics, escaping, folding, quantifiers, order).
@Suite("SQLite dialect: compiled SQL on a real database")
struct SQLiteDialectExecutionTests {
    /// An in-memory store holding the fixture categories and tasks; the test closes it.
    private func seededStore() async throws -> SQLiteStore {
        let store = try await SQLiteStore.inMemory(schema: Fixtures.schema)
        try await store.write { tx in
            try Fixtures.insertSampleData(tx)
        }
        return store
    }

    /// The primary keys `format` selects from `entity`, in `sort` order (primary key order by default).
    private func ids(
        _ store: SQLiteStore, _ format: String, _ arguments: any FormatArgument..., entity: String = "Task",
        sort: [FetchSortDescriptor] = [], limit: Int? = nil, offset: Int = 0
    ) async throws -> [Int64] {
        let predicate = try FetchPredicate(format: format, argumentArray: arguments)
        let request = FetchRequest(entity: entity, predicate: predicate, sortDescriptors: sort, fetchLimit: limit,
                                   fetchOffset: offset, propertiesToFetch: ["id"])
        return try await store.fetch(request).map { $0["id", as: Int64.self] ?? -1 }
    }

    @Test func nullSemanticsFollowFoundation() async throws {
        let store = try await seededStore()
        #expect(try await ids(store, "notes != 'unit'") == [1, 2, 3, 4, 5, 6, 8, 9, 10])
        #expect(try await ids(store, "NOT (notes == 'unit')") == [1, 2, 3, 4, 5, 6, 8, 9, 10])
        #expect(try await ids(store, "NOT (ordering > 2)") == [1, 2, 4, 5, 8, 9])
        #expect(try await ids(store, "notes == nil") == [2, 5, 8])
        #expect(try await ids(store, "notes IN {'unit', nil}") == [2, 5, 7, 8])
        #expect(try await ids(store, "notes == ''") == [10])
        #expect(try await ids(store, "category == nil") == [8, 9])
        #expect(try await ids(store, "category == 3") == [3, 4])
        #expect(try await ids(store, "category.name == 'Work'") == [1, 2, 7, 10])
        #expect(try await ids(store, "category.name != 'Work'") == [3, 4, 5, 6, 8, 9])
        await store.close()
    }

    @Test func stringOperatorsEscapeAndFold() async throws {
        let store = try await seededStore()
        #expect(try await ids(store, "notes CONTAINS '%'") == [4])
        #expect(try await ids(store, "notes CONTAINS '_'") == [4])
        #expect(try await ids(store, "notes CONTAINS '2%'") == [4])
        #expect(try await ids(store, "notes LIKE '2% fat?free'") == [4])
        #expect(try await ids(store, "notes LIKE '*t'") == [7])
        #expect(try await ids(store, "title BEGINSWITH 'write'") == [])
        #expect(try await ids(store, "title BEGINSWITH[c] 'write'") == [1, 7])
        #expect(try await ids(store, "title LIKE 'w*'") == [])
        #expect(try await ids(store, "title CONTAINS[cd] 'CAFE'") == [3])
        #expect(try await ids(store, "notes CONTAINS[d] 'Zurich'") == [6])
        #expect(try await ids(store, "title ENDSWITH 'タスク'") == [9])
        #expect(try await ids(store, "title BEGINSWITH notes") == [10])
        #expect(try await ids(store, "title CONTAINS notes") == [10])
        await store.close()
    }

    @Test func comparisonsListsAndRanges() async throws {
        let store = try await seededStore()
        #expect(try await ids(store, "priority BETWEEN {1, 3}") == [1, 2, 3, 4, 8, 9])
        #expect(try await ids(store, "ordering < 1") == [5, 9])
        #expect(try await ids(store, "priority > 2.5") == [1, 5, 7, 9])
        #expect(try await ids(store, "done == 1") == [2, 6, 8, 10])
        #expect(try await ids(store, "title < 'a'") == [1, 3, 4, 5, 6, 7, 8])
        #expect(try await ids(store, "priority == ordering") == [2, 7])
        #expect(try await ids(store, "due > %@", Date(microsecondsSince1970: 1_700_000_000_000_000)) == [1, 6])
        let many = [2, 4, 6, 8, 10] + Array(100...200)
        #expect(try await ids(store, "SELF IN %@", many) == [2, 4, 6, 8, 10])
        let titles = ["Café order", "日本語のタスク", "quote \" and \\ slash"] + (0..<70).map { "t\($0)" }
        #expect(try await ids(store, "title IN %@", titles) == [3, 9])
        let orderings = [-1.0, 0.5] + (0..<70).map { Double($0) + 100.25 }
        #expect(try await ids(store, "ordering IN %@", orderings) == [5, 9])
        #expect(try await ids(store, "priority IN {}") == [])
        await store.close()
    }

    @Test func quantifiersAndCount() async throws {
        let store = try await seededStore()
        #expect(try await ids(store, "ANY tasks.done == YES", entity: "Category") == [1, 2])
        #expect(try await ids(store, "ALL tasks.done == NO", entity: "Category") == [3])
        #expect(try await ids(store, "NONE tasks.priority > 3", entity: "Category") == [3])
        #expect(try await ids(store, "ALL tasks.ordering > 0", entity: "Category") == [1])
        #expect(try await ids(store, "tasks.@count > 2", entity: "Category") == [1])
        #expect(try await ids(store, "tasks.@count == 2", entity: "Category") == [2, 3])
        #expect(try await ids(store, "ANY category.tasks.priority == 5") == [5, 6])
        #expect(try await ids(store, "ANY tasks.title BEGINSWITH[c] name", entity: "Category") == [])
        let done = try FetchPredicate(format: "done == YES")
        #expect(try await store.count(FetchRequest(entity: "Task", predicate: done)) == 4)
        #expect(try await store.count(FetchRequest(entity: "Task", fetchLimit: 3, fetchOffset: 8)) == 2)
        await store.close()
    }

    @Test func orderNullsAndWindows() async throws {
        let store = try await seededStore()
        #expect(try await ids(store, "TRUEPREDICATE", sort: [.ascending("ordering")])
            == [4, 8, 5, 9, 1, 2, 3, 7, 10, 6])
        #expect(try await ids(store, "TRUEPREDICATE", sort: [.descending("ordering")])
            == [6, 10, 7, 3, 2, 1, 9, 5, 4, 8])
        #expect(try await ids(store, "TRUEPREDICATE", sort: [.ascending("category.name"), .ascending("title")])
            == [8, 9, 4, 3, 5, 6, 7, 1, 10, 2])
        #expect(try await ids(store, "TRUEPREDICATE", sort: [.ascending("title", caseInsensitive: true)])
            == [10, 4, 3, 8, 5, 6, 2, 1, 7, 9])
        #expect(try await ids(store, "TRUEPREDICATE", offset: 8) == [9, 10])
        #expect(try await ids(store, "TRUEPREDICATE", limit: 3, offset: 2) == [3, 4, 5])
        #expect(try await ids(store, "TRUEPREDICATE", limit: 0) == [])
        var request = FetchRequest(entity: "Task", sortDescriptors: [.ascending("category.name")],
                                   propertiesToFetch: ["title"])
        request.sectionNameKeyPath = "category.name"
        let rows = try await store.fetch(request)
        #expect(rows.first?.names == ["id", "title", "category.name"])
        #expect(rows.map { $0["category.name"] ?? .null }.prefix(3) == [.null, .null, .text("Errands")])
        await store.close()
    }

    @Test func doublesKeepNegativeZero() async throws {
        let store = try await seededStore()
        try await store.write { tx in
            try tx.insert(["id": 11, "title": "zero", "ordering": .double(-0.0)], into: "Task")
        }
        let eleven = try FetchPredicate(format: "SELF == 11")
        let rows = try await store.fetch(FetchRequest(entity: "Task", predicate: eleven,
                                                      propertiesToFetch: ["ordering"]))
        let value = try #require(rows.first?["ordering"])
        #expect(value == .double(-0.0))
        await store.close()
    }

    @Test func writesWithPredicatesAndUpserts() async throws {
        let store = try await seededStore()
        let updated = try await store.write { tx in
            try tx.update("Task", where: try FetchPredicate(format: "category.name == 'Home'"), set: ["done": true])
        }
        #expect(updated == 2)
        #expect(try await ids(store, "done == YES") == [2, 5, 6, 8, 10])
        let renamed = try await store.write { tx in
            let urgent = try FetchPredicate(format: "ANY tasks.priority >= 5")
            return try tx.update("Category", where: urgent, set: ["position": 9])
        }
        #expect(renamed == 1)
        #expect(try await ids(store, "position == 9", entity: "Category") == [2])
        let deleted = try await store.write { tx in
            try tx.delete("Task", where: try FetchPredicate(format: "category.position == 2"))
        }
        #expect(deleted == 2)
        #expect(try await ids(store, "TRUEPREDICATE") == [1, 2, 5, 6, 7, 8, 9, 10])
        try await store.write { tx in
            try tx.upsert(["id": 1, "title": "Changed"], into: "Task")
            try tx.upsert(["id": 12, "title": "New"], into: "Task")
        }
        let rows = try await store.fetch(FetchRequest(
            entity: "Task", predicate: try FetchPredicate(format: "SELF IN {1, 12}"),
            propertiesToFetch: ["title", "priority"]))
        #expect(rows.map { $0["title"] ?? .null } == [.text("Changed"), .text("New")])
        #expect(rows.map { $0["priority"] ?? .null } == [.integer(3), .integer(0)])
        await store.close()
    }
}
