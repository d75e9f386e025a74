@_spi(Backend) import FetchKit
import FetchKitSQLite
import FetchKitTesting
import Foundation
import Testing

/// Every `#Predicate` form FetchKit translates, run through SQLite's SQL and FetchKit's in-memory evaluator
/// and compared with Foundation's own `Predicate.evaluate` over the same records: a translated predicate
/// keeps Swift's meaning, empty needles included (`"abc".contains("")` is true in Swift).
@Suite("#Predicate on SQLite equals Predicate.evaluate")
struct FoundationPredicateSQLiteTests {
    typealias Task = Fixtures.TaskRecord

    /// The fixtures' tasks and some with empty texts, a needle longer than its text, a sharp s.
    static let tasks: [Task] = Fixtures.sampleTasks + [
        Task(id: 11, title: "", notes: ""),
        Task(id: 12, title: "abc", notes: ""),
        Task(id: 13, title: "", notes: nil, priority: 4),
        Task(id: 14, title: "Straße", notes: "ss", priority: 2, ordering: -0.5),
        Task(id: 15, title: "milk", notes: "milk", priority: 1),
        Task(id: 16, title: "Buy milk", notes: "milk", priority: 3, done: true),
        Task(id: 17, title: "ab", notes: "abc", priority: 5),
        Task(id: 18, title: "nab", notes: "n", done: true),
    ]

    /// Each supported form, named for failure messages.
    static func predicates() -> [(String, Predicate<Task>)] {
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
            ("title == constant", #Predicate<Task> { $0.title == "Buy milk" }),
            ("title == captured", #Predicate<Task> { $0.title == name }),
            ("priority != 3", #Predicate<Task> { $0.priority != 3 }),
            ("notes == nil", #Predicate<Task> { $0.notes == nil }),
            ("notes != nil", #Predicate<Task> { $0.notes != nil }),
            ("notes == nil optional", #Predicate<Task> { $0.notes == missing }),
            ("notes == optional", #Predicate<Task> { $0.notes == present }),
            ("notes != optional", #Predicate<Task> { $0.notes != present }),
            ("priority < 2", #Predicate<Task> { $0.priority < 2 }),
            ("priority <= 2", #Predicate<Task> { $0.priority <= 2 }),
            ("priority > 2", #Predicate<Task> { $0.priority > 2 }),
            ("priority >= 2", #Predicate<Task> { $0.priority >= 2 }),
            ("2 < priority", #Predicate<Task> { 2 < $0.priority }),
            ("title < 'a'", #Predicate<Task> { $0.title < "a" }),
            ("title == title", #Predicate<Task> { $0.title == $0.title }),
            ("due! < date", #Predicate<Task> { $0.due! < due }),
            ("ordering! >= -0.5", #Predicate<Task> { $0.ordering! >= -0.5 }),
            ("attachment == data", #Predicate<Task> { $0.attachment == bytes }),
            ("done == false", #Predicate<Task> { $0.done == false }),
            ("priority > -2", #Predicate<Task> { $0.priority > -2 }),
            ("categoryID == Int64.max", #Predicate<Task> { $0.categoryID == big }),
            ("done", #Predicate<Task> { $0.done }),
            ("!done", #Predicate<Task> { !$0.done }),
            ("true", #Predicate<Task> { _ in true }),
            ("false", #Predicate<Task> { _ in false }),
            ("&&", #Predicate<Task> { !$0.done && $0.priority > 2 }),
            ("|| and &&", #Predicate<Task> { $0.priority > 2 && $0.done || $0.priority <= 1 || $0.done }),
            ("!(||)", #Predicate<Task> { !($0.priority > 2 || $0.done) }),
            ("array literal contains", #Predicate<Task> { [1, 2, 5].contains($0.priority) }),
            ("captured array contains", #Predicate<Task> { titles.contains($0.title) }),
            ("empty array contains", #Predicate<Task> { none.contains($0.priority) }),
            ("closed range contains", #Predicate<Task> { (1...3).contains($0.priority) }),
            ("half-open range contains", #Predicate<Task> { (1..<3).contains($0.priority) }),
            ("date range contains due!", #Predicate<Task> { window.contains($0.due!) }),
            ("contains constant", #Predicate<Task> { $0.title.contains("milk") }),
            ("starts(with:) constant", #Predicate<Task> { $0.title.starts(with: "Wr") }),
            ("notes! starts(with:)", #Predicate<Task> { $0.notes != nil && $0.notes!.starts(with: "n") }),
            // Empty needles: true in Swift for every text
            ("contains ''", #Predicate<Task> { $0.title.contains("") }),
            ("contains captured ''", #Predicate<Task> { $0.title.contains(empty) }),
            ("starts(with: '')", #Predicate<Task> { $0.title.starts(with: "") }),
            ("!contains ''", #Predicate<Task> { !$0.title.contains("") }),
            ("notes! contains ''", #Predicate<Task> { $0.notes!.contains("") }),
            ("notes! starts(with: '')", #Predicate<Task> { $0.notes!.starts(with: "") }),
            ("contains notes!", #Predicate<Task> { $0.title.contains($0.notes!) }),
            ("starts(with: notes!)", #Predicate<Task> { $0.title.starts(with: $0.notes!) }),
            ("notes! contains title", #Predicate<Task> { $0.notes!.contains($0.title) }),
            ("contains title", #Predicate<Task> { $0.title.contains($0.title) }),
            ("guarded !contains notes!", #Predicate<Task> { $0.notes != nil && !$0.title.contains($0.notes!) }),
            ("guarded !starts(with: notes!)", #Predicate<Task> { $0.notes != nil && !$0.title.starts(with: $0.notes!) }),
            ("contains || priority", #Predicate<Task> { $0.title.contains("") || $0.priority > 100 }),
            // A constant searched for the property's value
            ("constant contains title", #Predicate<Task> { "Buy milk and eggs".contains($0.title) }),
            ("constant starts(with: title)", #Predicate<Task> { "Write report now".starts(with: $0.title) }),
            ("constant contains notes!", #Predicate<Task> { $0.notes != nil && "a quarterly unit".contains($0.notes!) }),
        ]
    }

    @Test func translatedPredicatesSelectWhatEvaluateSelects() async throws {
        let store = try await SQLiteStore.inMemory(schema: Fixtures.schema)
        try await store.write { tx in
            for category in Fixtures.sampleCategories { try tx.insert(category) }
            for task in Self.tasks { try tx.insert(task) }
        }
        let rows = try await store.fetch(FetchRequest(entity: "Task", sortDescriptors: [.ascending("id")]))
        for (name, predicate) in Self.predicates() {
            // A forced unwrap of nil throws in Swift; FetchKit's SQL makes that comparison false.
            let expected = Set(Self.tasks.filter { (try? predicate.evaluate($0)) ?? false }.compactMap(\.id))
            let translated = try FetchPredicate(predicate)
            let request = FetchRequest(entity: "Task", predicate: translated, sortDescriptors: [.ascending("id")])
            let fetched = Set(try await store.fetch(request).compactMap { $0["id", as: Int64.self] })
            #expect(fetched == expected, "\(name): SQLite selects \(fetched.sorted()), evaluate \(expected.sorted()); \(translated)")
            let validated = try translated.validated(for: Fixtures.task, in: Fixtures.schema)
            // A constant searched for a property's value is left to the database by live results.
            guard !name.hasPrefix("constant") else {
                #expect(InMemoryPredicate(validated, entity: Fixtures.task, schema: Fixtures.schema, dialect: store.dialect) == nil)
                continue
            }
            let memory = try #require(
                InMemoryPredicate(validated, entity: Fixtures.task, schema: Fixtures.schema, dialect: store.dialect), "\(name)")
            let inMemory = Set(rows.filter(memory.matches).compactMap { $0["id", as: Int64.self] })
            #expect(inMemory == expected, "\(name): in memory \(inMemory.sorted()), evaluate \(expected.sorted())")
        }
        await store.close()
    }
}
