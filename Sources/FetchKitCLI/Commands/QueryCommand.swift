import ArgumentParser
import FetchKit
import FetchKitFixtures
import FetchKitSQLite
import Foundation

/// `fetchkit query`: an embedded SQLite database with sample todos, queried with format strings.
struct QueryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "Create an embedded SQLite database with sample todos and run fetches on it.",
        discussion: """
            Without predicates, runs a tour of FetchKit's predicate language. With predicates, runs each one
            (NSPredicate format strings) against --entity, sorted by --sort.

              fetchkit query
              fetchkit query --entity Todo --sort -priority,title "done == NO AND category.name == 'Work'"
            """
    )

    @Option(help: "Database file (default: a new file in a temporary folder, deleted afterwards).")
    var path: String?

    @Option(help: "The entity the given predicates query: Todo, Category or Note.")
    var entity = "Todo"

    // Unconditional: the value may start with '-' (`--sort -priority,title`), which is not an option.
    @Option(
        parsing: .unconditional,
        help: "Sort keys, comma-separated; a leading '-' sorts descending (e.g. -priority,title).")
    var sort = "id"

    @Option(help: "At most this many rows per fetch.")
    var limit: Int?

    @Argument(help: "Predicates in NSPredicate format.")
    var predicates: [String] = []

    func run() async throws {
        let temporary = path == nil
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fetchkit-query-\(UUID())")
        let file = path ?? directory.appendingPathComponent("query.sqlite").path
        if temporary { try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true) }
        defer { if temporary { try? FileManager.default.removeItem(at: directory) } }

        let store = try await SQLiteStore.open(path: file, schema: Fixtures.schema)
        let inserted = try await Self.seed(store)
        print("FetchKit query — embedded SQLite at \(file)")
        print("inserted \(inserted.categories) categories and \(inserted.todos) todos\n")

        let queries: [(entity: String, format: String, sort: [FetchSortDescriptor])]
        if predicates.isEmpty {
            queries = Self.tour
        } else {
            let descriptors = try Self.parseSort(sort)
            queries = predicates.map { (entity, $0, descriptors) }
        }
        for query in queries {
            let request = FetchRequest(
                entity: query.entity, predicate: try FetchPredicate(format: query.format),
                sortDescriptors: query.sort, fetchLimit: limit)
            let rows = try await store.fetch(request)
            print("\(query.entity) where \(query.format)  →  \(rows.count) row(s)")
            print(TableRenderer().render(rows, columns: Self.columns[query.entity]))
        }
        await store.close()
    }

    /// Inserts the fixture categories and todos once (a reused --path keeps its rows).
    static func seed(_ store: SQLiteStore) async throws -> (categories: Int, todos: Int) {
        try await store.write { tx in
            guard try tx.fetch(FetchRequest(entity: "Category", fetchLimit: 1)).isEmpty else { return (0, 0) }
            try Fixtures.insertSampleData(tx)
            return (Fixtures.sampleCategories.count, Fixtures.sampleTodos.count)
        }
    }

    static let columns: [String: [String]] = [
        "Todo": ["id", "title", "priority", "ordering", "done", "notes", "categoryID"],
        "Category": ["id", "name", "position"],
        "Note": ["slug", "body", "pinned"]
    ]

    static let tour: [(entity: String, format: String, sort: [FetchSortDescriptor])] = [
        ("Todo", "done == NO", [.descending("priority"), .ascending("title")]),
        ("Todo", "category.name == 'Work' AND priority >= 3", [.ascending("ordering")]),
        ("Todo", "title BEGINSWITH[c] 'w' OR title ENDSWITH 'k'", [.ascending("title", caseInsensitive: true)]),
        ("Todo", "notes CONTAINS[cd] 'RESUME'", [.ascending("id")]),
        ("Todo", "title LIKE '*i?k*' OR priority BETWEEN {4, 5}", [.ascending("id")]),
        ("Todo", "ordering == nil OR categoryID IN {2, 3}", [.ascending("category.name"), .ascending("id")]),
        ("Category", "ANY todos.done == YES", [.ascending("position")]),
        ("Category", "todos.@count >= 3", [.ascending("name")])
    ]

    static func parseSort(_ text: String) throws -> [FetchSortDescriptor] {
        try text.split(separator: ",").map { part in
            let key = part.trimmingCharacters(in: .whitespaces)
            guard !key.isEmpty else { throw ValidationError("empty sort key in '\(text)'") }
            return key.hasPrefix("-") ? .descending(String(key.dropFirst())) : .ascending(key)
        }
    }
}
