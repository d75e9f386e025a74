import FetchKit
import FetchKitSQLite
import FetchKitTesting
import Foundation
import Testing

/// Every predicate form executed against a real SQLite database holding the fixture rows,
/// with the expected primary keys worked out by hand from `Fixtures.sampleTasks`.
@Suite("Predicates executed on SQLite")
struct PredicateExecutionTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let entity: String
        let format: String
        let arguments: [any FormatArgument]
        let expected: [Int64]
        var testDescription: String { "\(entity): \(format)" }

        init(_ format: String, _ arguments: [any FormatArgument], _ expected: [Int64], on entity: String = "Task") {
            self.entity = entity
            self.format = format
            self.arguments = arguments
            self.expected = expected
        }
    }

    static let cases: [Case] = [
        // Booleans and comparisons
        Case("done == NO", [], [1, 3, 4, 5, 7, 9]),
        Case("done == YES", [], [2, 6, 8, 10]),
        Case("done = FALSE", [], [1, 3, 4, 5, 7, 9]),
        Case("done == 1", [], [2, 6, 8, 10]),
        Case("priority > 2", [], [1, 5, 7, 9]),
        Case("priority >= 3", [], [1, 5, 7, 9]),
        Case("priority => 4", [], [5, 7]),
        Case("priority < 1", [], [6, 10]),
        Case("priority <= 1", [], [3, 4, 6, 10]),
        Case("priority =< 1", [], [3, 4, 6, 10]),
        Case("priority != 2", [], [1, 3, 4, 5, 6, 7, 9, 10]),
        Case("priority <> 2", [], [1, 3, 4, 5, 6, 7, 9, 10]),
        Case("2 < priority", [], [1, 5, 7, 9]),
        Case("priority == -1", [], [10]),
        // NULL semantics (NSPredicate's: NULL != 'unit' is true)
        Case("notes == nil", [], [2, 5, 8]),
        Case("notes == NULL", [], [2, 5, 8]),
        Case("notes != nil", [], [1, 3, 4, 6, 7, 9, 10]),
        Case("notes != 'unit'", [], [1, 2, 3, 4, 5, 6, 8, 9, 10]),
        Case("notes == ''", [], [10]),
        Case("ordering == nil", [], [4, 8]),
        Case("categoryID == nil", [], [8, 9]),
        Case("attachment != nil", [], [5]),
        // Text equality, case and diacritics, unicode
        Case("title == 'Buy milk'", [], [4]),
        Case("title ==[c] 'BUY MILK'", [], [4]),
        Case("title == \"日本語のタスク\"", [], [9]),
        Case("notes CONTAINS '🎉'", [], [9]),
        // String operators
        Case("title BEGINSWITH 'W'", [], [1, 7]),
        Case("title BEGINSWITH 'Wr'", [], [1]),
        Case("title BEGINSWITH[c] 'wr'", [], [1, 7]),
        Case("title ENDSWITH 'k'", [], [4, 5]),
        Case("title ENDSWITH[c] 'S'", [], [7]),
        Case("title CONTAINS 'e'", [], [1, 2, 3, 7, 10]),
        Case("title CONTAINS 'E'", [], [7]),
        Case("title CONTAINS[c] 'E'", [], [1, 2, 3, 7, 10]),
        Case("notes CONTAINS 'resume'", [], []),
        Case("notes CONTAINS[d] 'resume'", [], [3]),
        Case("notes CONTAINS[cd] 'RESUME'", [], [3]),
        Case("notes CONTAINS[d] 'zurich'", [], []),
        Case("notes CONTAINS[cd] 'zurich'", [], [6]),
        Case("title BEGINSWITH[cd] 'cafe'", [], [3]),
        // LIKE wildcards and escaping of user data
        Case("title LIKE 'W*'", [], [1, 7]),
        Case("title LIKE '?uy*'", [], [4]),
        Case("title LIKE[c] 'write*'", [], [1, 7]),
        Case("title LIKE '*i?k'", [], [4, 5]),
        Case("notes LIKE '*_*'", [], [4]),
        Case("notes LIKE '2%*'", [], [4]),
        Case("notes CONTAINS '%'", [], [4]),
        Case("notes CONTAINS '_'", [], [4]),
        Case("notes BEGINSWITH '2%'", [], [4]),
        Case("notes ENDSWITH '_free'", [], [4]),
        // IN, BETWEEN
        Case("title IN {'Buy milk', 'Fix sink'}", [], [4, 5]),
        Case("priority IN {0, -1, 5}", [], [5, 6, 10]),
        Case("title IN %@", [["Call mom", "archive"]], [8, 10]),
        Case("priority IN %@", [[Int]()], []),
        Case("id IN %@", [Array(Int64(1)...Int64(2_000))], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]),
        Case("priority BETWEEN {2, 3}", [], [1, 2, 8, 9]),
        Case("ordering BETWEEN {0.5, 3.5}", [], [1, 2, 3, 9]),
        Case("ordering BETWEEN %@", [[0.5, 3.5]], [1, 2, 3, 9]),
        Case("ordering < 0", [], [5]),
        // Dates to the microsecond
        Case("due != nil", [], [1, 6]),
        Case("due > %@", [Date(microsecondsSince1970: 1_700_000_000_000_000)], [1, 6]),
        Case("due > %@", [Date(microsecondsSince1970: 1_700_000_000_123_456)], [1]),
        Case("due == %@", [Date(microsecondsSince1970: 1_700_000_000_123_456)], [6]),
        // Compound predicates
        Case("NOT (done == YES)", [], [1, 3, 4, 5, 7, 9]),
        Case("!(done == YES)", [], [1, 3, 4, 5, 7, 9]),
        Case("done == NO AND priority > 2", [], [1, 5, 7, 9]),
        Case("done == NO && priority > 2 && notes != nil", [], [1, 7, 9]),
        Case("done == YES OR priority > 4", [], [2, 5, 6, 8, 10]),
        Case("done == YES || (priority > 3 AND title BEGINSWITH 'F')", [], [2, 5, 6, 8, 10]),
        Case("TRUEPREDICATE", [], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]),
        Case("FALSEPREDICATE", [], []),
        // To-one key paths
        Case("category.name == 'Work'", [], [1, 2, 7, 10]),
        Case("category.name BEGINSWITH 'E'", [], [3, 4]),
        Case("category.position > 0", [], [3, 4, 5, 6]),
        Case("category.name == 'Work' AND done == NO", [], [1, 7]),
        Case("category.name != 'Work'", [], [3, 4, 5, 6, 8, 9]),
        // SELF and substitutions
        Case("SELF == 3", [], [3]),
        Case("SELF IN {1, 2}", [], [1, 2]),
        Case("%K == %@", ["title", "Buy milk"], [4]),
        Case("priority == %d", [5], [5]),
        Case("ordering > %f", [3.9], [6, 7, 10]),
        Case("%K BEGINSWITH[c] %@", ["category.name", "ho"], [5, 6]),
        // To-many: quantifiers and @count
        Case("ANY tasks.done == YES", [], [1, 2], on: "Category"),
        Case("SOME tasks.notes CONTAINS[cd] 'zurich'", [], [2], on: "Category"),
        Case("ALL tasks.done == NO", [], [3], on: "Category"),
        Case("NONE tasks.priority > 4", [], [1, 3], on: "Category"),
        Case("ANY tasks.title BEGINSWITH[c] 'w'", [], [1], on: "Category"),
        Case("tasks.@count >= 3", [], [1], on: "Category"),
        Case("tasks.@count == 2", [], [2, 3], on: "Category"),
        Case("ANY tasks.priority IN {5, 1}", [], [2, 3], on: "Category"),
    ]

    static func makeStore() async throws -> SQLiteStore {
        let store = try await SQLiteStore.inMemory(schema: Fixtures.schema)
        try await store.seed()
        return store
    }

    @Test(arguments: cases)
    func matchesExpectedRows(_ testCase: Case) async throws {
        let store = try await Self.makeStore()
        let predicate = try FetchPredicate(format: testCase.format, argumentArray: testCase.arguments)
        let request = FetchRequest(entity: testCase.entity, predicate: predicate, sortDescriptors: [.ascending("id")])
        let rows = try await store.fetch(request)
        #expect(rows.map { $0["id", as: Int64.self] } == testCase.expected)
        #expect(try await store.count(request) == testCase.expected.count)
        await store.close()
    }

    @Test func variableSubstitution() async throws {
        let store = try await Self.makeStore()
        let template = try FetchPredicate(format: "title == $TITLE OR priority > $P")
        let predicate = try template.substituting(["TITLE": "Fix sink", "P": 3])
        let rows = try await store.fetch(FetchRequest(entity: "Task", predicate: predicate, sortDescriptors: [.ascending("id")]))
        #expect(rows.map { $0["id", as: Int64.self] } == [5, 7])
        await store.close()
    }

    @Test func injectionThroughValuesIsHarmless() async throws {
        let store = try await Self.makeStore()
        let hostile = "x'); DROP TABLE task; --"
        let rows = try await store.fetch(
            FetchRequest(entity: "Task", predicate: try FetchPredicate(format: "title == %@", hostile)))
        #expect(rows.isEmpty)
        try await store.write { tx in try tx.insert(Fixtures.TaskRecord(title: hostile)) }
        let stored = try await store.fetch(
            FetchRequest(entity: "Task", predicate: try FetchPredicate(format: "title == %@", hostile)),
            as: Fixtures.TaskRecord.self)
        #expect(stored.map(\.title) == [hostile])
        #expect(try await store.count(FetchRequest(entity: "Task")) == 11)
        await store.close()
    }

    @Test func injectionThroughKeyIsRejected() async throws {
        let store = try await Self.makeStore()
        #expect(throws: FetchKitError.self) {
            _ = try FetchPredicate(format: "%K == 1", "name; DROP TABLE task")
        }
        // A syntactically valid but unknown key is rejected by validation, never reaches SQL.
        let unknown = try FetchPredicate(format: "%K == 1", "title_x")
        await #expect(throws: FetchKitError.unknownKey("title_x", entity: "Task", offset: 0)) {
            _ = try await store.fetch(FetchRequest(entity: "Task", predicate: unknown))
        }
        #expect(try await store.count(FetchRequest(entity: "Task")) == 10)
        await store.close()
    }

    @Test func typeMismatchIsReported() async throws {
        let store = try await Self.makeStore()
        let predicate = try FetchPredicate(format: "priority == \"abc\"")
        await #expect(throws: FetchKitError.typeMismatch(key: "priority", expected: .integer, got: "\"abc\"", offset: 0)) {
            _ = try await store.fetch(FetchRequest(entity: "Task", predicate: predicate))
        }
        await store.close()
    }

    @Test func matchesIsUnsupported() async throws {
        let store = try await Self.makeStore()
        let predicate = try FetchPredicate(format: "title MATCHES 'W.*'")
        await #expect(throws: FetchKitError.self) {
            _ = try await store.fetch(FetchRequest(entity: "Task", predicate: predicate))
        }
        await store.close()
    }

    @Test func textPrimaryKeyEntity() async throws {
        let store = try await Self.makeStore()
        try await store.write { tx in
            try tx.insert(Fixtures.NoteRecord(slug: "b-note", body: "second", pinned: true))
            try tx.insert(Fixtures.NoteRecord(slug: "a-note", body: "first"))
        }
        let pinned = try await store.fetch(
            FetchRequest(entity: "Note", predicate: try FetchPredicate(format: "pinned == YES OR slug BEGINSWITH 'a'"),
                         sortDescriptors: [.ascending("slug")]), as: Fixtures.NoteRecord.self)
        #expect(pinned.map(\.slug) == ["a-note", "b-note"])
        await store.close()
    }

    @Test func sortOrdersAndLimits() async throws {
        let store = try await Self.makeStore()
        // NULLs first ascending, last descending; primary key breaks ties.
        let ascending = try await store.fetch(FetchRequest(entity: "Task", sortDescriptors: [.ascending("ordering")]))
        #expect(ascending.map { $0["id", as: Int64.self] } == [4, 8, 5, 9, 1, 2, 3, 7, 10, 6])
        let descending = try await store.fetch(FetchRequest(entity: "Task", sortDescriptors: [.descending("ordering")]))
        #expect(descending.map { $0["id", as: Int64.self] } == [6, 10, 7, 3, 2, 1, 9, 5, 4, 8])
        // Through a relationship, NULL categories first.
        let byCategory = try await store.fetch(
            FetchRequest(entity: "Task", sortDescriptors: [.ascending("category.name"), .descending("priority")]))
        #expect(byCategory.map { $0["id", as: Int64.self] } == [9, 8, 3, 4, 5, 6, 7, 1, 2, 10])
        // Binary (code point) order vs case-insensitive order.
        let binary = try await store.fetch(
            FetchRequest(entity: "Task", predicate: try FetchPredicate(format: "id IN {1, 7, 10, 2}"),
                         sortDescriptors: [.ascending("title")]))
        #expect(binary.map { $0["id", as: Int64.self] } == [7, 1, 10, 2])
        let folded = try await store.fetch(
            FetchRequest(entity: "Task", predicate: try FetchPredicate(format: "id IN {1, 7, 10, 2}"),
                         sortDescriptors: [.ascending("title", caseInsensitive: true)]))
        #expect(folded.map { $0["id", as: Int64.self] } == [10, 2, 1, 7])
        // Limit and offset.
        let page = try await store.fetch(
            FetchRequest(entity: "Task", sortDescriptors: [.descending("priority")], fetchLimit: 3, fetchOffset: 2))
        #expect(page.map { $0["id", as: Int64.self] } == [1, 9, 2])
        let offsetOnly = try await store.fetch(
            FetchRequest(entity: "Task", sortDescriptors: [.ascending("id")], fetchOffset: 8))
        #expect(offsetOnly.map { $0["id", as: Int64.self] } == [9, 10])
        #expect(try await store.count(FetchRequest(entity: "Task", fetchLimit: 4)) == 4)
        await store.close()
    }
}
