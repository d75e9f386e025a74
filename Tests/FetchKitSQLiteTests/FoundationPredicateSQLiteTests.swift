import FetchKit
import FetchKitFixtures
import FetchKitSQLite
import FetchKitTesting
import Foundation
import Testing

/// Every `#Predicate` form FetchKit translates, run through SQLite's SQL and FetchKit's in-memory evaluator
/// and compared with Foundation's own `Predicate.evaluate` over the same records: a translated predicate
/// keeps Swift's meaning, empty needles included (`"abc".contains("")` is true in Swift).
@Suite("#Predicate on SQLite equals Predicate.evaluate")
struct FoundationPredicateSQLiteTests {
    typealias Todo = Fixtures.TodoRecord

    /// The fixtures' todos and some with empty texts, a needle longer than its text, a sharp s.
    static let todos: [Todo] =
        Fixtures.sampleTodos + [
            Todo(id: 11, title: "", notes: ""),
            Todo(id: 12, title: "abc", notes: ""),
            Todo(id: 13, title: "", notes: nil, priority: 4),
            Todo(id: 14, title: "Straße", notes: "ss", priority: 2, ordering: -0.5),
            Todo(id: 15, title: "milk", notes: "milk", priority: 1),
            Todo(id: 16, title: "Buy milk", notes: "milk", priority: 3, done: true),
            Todo(id: 17, title: "ab", notes: "abc", priority: 5),
            Todo(id: 18, title: "nab", notes: "n", done: true)
        ]

    /// Each supported form, named for failure messages.
    static func predicates() -> [(String, Predicate<Todo>)] {
        let name = "Fix sink"
        let missing: String? = nil
        let present: String? = "unit"
        let due = Date(microsecondsSince1970: 1_700_000_000_123_456)
        let bytes = Data([0, 1, 2, 255])
        let big: Int64 = .max
        let titles = ["Fix sink", "Call mom", ""]
        let none: [Int] = []
        let window = Date(microsecondsSince1970: 0)...Date(microsecondsSince1970: 1_700_000_000_123_456)
        let empty = ""
        return [
            ("title == constant", #Predicate<Todo> { $0.title == "Buy milk" }),
            ("title == captured", #Predicate<Todo> { $0.title == name }),
            ("priority != 3", #Predicate<Todo> { $0.priority != 3 }),
            ("notes == nil", #Predicate<Todo> { $0.notes == nil }),
            ("notes != nil", #Predicate<Todo> { $0.notes != nil }),
            ("notes == nil optional", #Predicate<Todo> { $0.notes == missing }),
            ("notes == optional", #Predicate<Todo> { $0.notes == present }),
            ("notes != optional", #Predicate<Todo> { $0.notes != present }),
            ("priority < 2", #Predicate<Todo> { $0.priority < 2 }),
            ("priority <= 2", #Predicate<Todo> { $0.priority <= 2 }),
            ("priority > 2", #Predicate<Todo> { $0.priority > 2 }),
            ("priority >= 2", #Predicate<Todo> { $0.priority >= 2 }),
            ("2 < priority", #Predicate<Todo> { 2 < $0.priority }),
            ("title < 'a'", #Predicate<Todo> { $0.title < "a" }),
            ("title == title", #Predicate<Todo> { $0.title == $0.title }),
            ("due! < date", #Predicate<Todo> { $0.due! < due }),
            ("ordering! >= -0.5", #Predicate<Todo> { $0.ordering! >= -0.5 }),
            ("attachment == data", #Predicate<Todo> { $0.attachment == bytes }),
            ("done == false", #Predicate<Todo> { $0.done == false }),
            ("priority > -2", #Predicate<Todo> { $0.priority > -2 }),
            ("categoryID == Int64.max", #Predicate<Todo> { $0.categoryID == big }),
            ("done", #Predicate<Todo> { $0.done }),
            ("!done", #Predicate<Todo> { !$0.done }),
            ("true", #Predicate<Todo> { _ in true }),
            ("false", #Predicate<Todo> { _ in false }),
            ("&&", #Predicate<Todo> { !$0.done && $0.priority > 2 }),
            ("|| and &&", #Predicate<Todo> { $0.priority > 2 && $0.done || $0.priority <= 1 || $0.done }),
            ("!(||)", #Predicate<Todo> { !($0.priority > 2 || $0.done) }),
            ("array literal contains", #Predicate<Todo> { [1, 2, 5].contains($0.priority) }),
            ("captured array contains", #Predicate<Todo> { titles.contains($0.title) }),
            ("empty array contains", #Predicate<Todo> { none.contains($0.priority) }),
            ("closed range contains", #Predicate<Todo> { (1...3).contains($0.priority) }),
            ("half-open range contains", #Predicate<Todo> { (1..<3).contains($0.priority) }),
            ("date range contains due!", #Predicate<Todo> { window.contains($0.due!) }),
            ("contains constant", #Predicate<Todo> { $0.title.contains("milk") }),
            ("starts(with:) constant", #Predicate<Todo> { $0.title.starts(with: "Wr") }),
            ("notes! starts(with:)", #Predicate<Todo> { $0.notes != nil && $0.notes!.starts(with: "n") }),
            // Empty needles: true in Swift for every text
            ("contains ''", #Predicate<Todo> { $0.title.contains("") }),
            ("contains captured ''", #Predicate<Todo> { $0.title.contains(empty) }),
            ("starts(with: '')", #Predicate<Todo> { $0.title.starts(with: "") }),
            ("!contains ''", #Predicate<Todo> { !$0.title.contains("") }),
            ("notes! contains ''", #Predicate<Todo> { $0.notes!.contains("") }),
            ("notes! starts(with: '')", #Predicate<Todo> { $0.notes!.starts(with: "") }),
            ("contains notes!", #Predicate<Todo> { $0.title.contains($0.notes!) }),
            ("starts(with: notes!)", #Predicate<Todo> { $0.title.starts(with: $0.notes!) }),
            ("notes! contains title", #Predicate<Todo> { $0.notes!.contains($0.title) }),
            ("contains title", #Predicate<Todo> { $0.title.contains($0.title) }),
            ("guarded !contains notes!", #Predicate<Todo> { $0.notes != nil && !$0.title.contains($0.notes!) }),
            (
                "guarded !starts(with: notes!)",
                #Predicate<Todo> { $0.notes != nil && !$0.title.starts(with: $0.notes!) }
            ),
            ("contains || priority", #Predicate<Todo> { $0.title.contains("") || $0.priority > 100 }),
            // A constant searched for the property's value
            ("constant contains title", #Predicate<Todo> { "Buy milk and eggs".contains($0.title) }),
            ("constant starts(with: title)", #Predicate<Todo> { "Write report now".starts(with: $0.title) }),
            ("constant contains notes!", #Predicate<Todo> { $0.notes != nil && "a quarterly unit".contains($0.notes!) })
        ]
    }

    @Test func translatedPredicatesSelectWhatEvaluateSelects() async throws {
        let store = try await SQLiteStore.inMemory(schema: Fixtures.schema)
        try await store.write { tx in
            for category in Fixtures.sampleCategories { try tx.insert(category) }
            for todo in Self.todos { try tx.insert(todo) }
        }
        let rows = try await store.fetch(FetchRequest(entity: "Todo", sortDescriptors: [.ascending("id")]))
        for (name, predicate) in Self.predicates() {
            // A forced unwrap of nil throws in Swift; FetchKit's SQL makes that comparison false.
            let expected = Set(Self.todos.filter { (try? predicate.evaluate($0)) ?? false }.compactMap(\.id))
            let translated = try FetchPredicate(predicate)
            let request = FetchRequest(entity: "Todo", predicate: translated, sortDescriptors: [.ascending("id")])
            let fetched = Set(try await store.fetch(request).compactMap { $0["id", as: Int64.self] })
            #expect(
                fetched == expected,
                "\(name): SQLite selects \(fetched.sorted()), evaluate \(expected.sorted()); \(translated)")
            let validated = try translated.validated(for: Fixtures.todo, in: Fixtures.schema)
            // A constant searched for a property's value is left to the database by live results.
            guard !name.hasPrefix("constant") else {
                #expect(
                    InMemoryPredicate(validated, entity: Fixtures.todo, schema: Fixtures.schema, dialect: store.dialect)
                        == nil)
                continue
            }
            let memory = try #require(
                InMemoryPredicate(validated, entity: Fixtures.todo, schema: Fixtures.schema, dialect: store.dialect),
                "\(name)")
            let inMemory = Set(rows.filter(memory.matches).compactMap { $0["id", as: Int64.self] })
            #expect(inMemory == expected, "\(name): in memory \(inMemory.sorted()), evaluate \(expected.sorted())")
        }
        await store.close()
    }
}
