@_spi(Backend) import FetchKit
import Foundation

/// One random write of the live-results check.
public enum RandomOperation: CustomStringConvertible, Sendable {
    case insertTodo(Fixtures.TodoRecord)
    case deleteTodo(Int64)
    case setSortKeys(Int64, priority: Int, ordering: Double?, title: String)
    case setCategory(Int64, Int64?)
    case setPayload(Int64, notes: String?)
    case noOpUpdate(Int64)
    case bulkUpdate(belowPriority: Int, done: Bool)
    case bulkDelete(priority: Int)
    /// Deletes every todo from this key on (a batch job's cleanup).
    case bulkDeleteFrom(Int64)
    case renameCategory(Int64, String)
    case moveCategory(Int64, position: Int)
    case insertCategory(Int64, String)

    package static let titles = ["alpha", "Beta", "gamma", "Delta", "épée", "zeta", "Alpha", "beta", "ω", ""]
    static let categoryNames = ["Work", "Home", "Errands", "Zeta", "alpha", "Ärger"]

    /// Writes `count` transactions of one to three random operations each; those a constraint (or another
    /// client's concurrent write) rolls back are skipped.
    ///
    /// - Returns: How many committed.
    @discardableResult
    public static func writeTransactions(_ count: Int, to store: any PersistentStore, using random: inout SeededRandom)
        async throws -> Int
    {
        let dialect = store.dialect
        var committed = 0
        for _ in 0..<count {
            let operations = (0..<random.int(1...3)).map { _ in make(&random) }
            do {
                try await store.write { tx in for operation in operations { try operation.apply(tx, dialect: dialect) }
                }
                committed += 1
            } catch is FetchKitError {}
        }
        return committed
    }

    /// A random operation.
    public static func make(_ random: inout SeededRandom) -> RandomOperation {
        let todo = Int64(random.int(1...40))
        switch random.int(0..<22) {
        case 0..<5:
            return .insertTodo(
                Fixtures.TodoRecord(
                    id: nil, title: titles[random.int(0..<titles.count)],
                    notes: random.int(0..<3) == 0 ? nil : titles[random.int(0..<titles.count)] + " a",
                    priority: random.int(-1...6),
                    ordering: random.int(0..<4) == 0 ? nil : Double(random.int(-5...20)) / 2,
                    done: random.int(0..<2) == 0,
                    due: random.int(0..<3) == 0
                        ? nil : Date(microsecondsSince1970: Int64(random.int(0...5)) * 1_000_001),
                    categoryID: random.int(0..<5) == 0 ? nil : Int64(random.int(1...4))))
        case 5..<8: return .deleteTodo(todo)
        case 8..<12:
            return .setSortKeys(
                todo, priority: random.int(-1...6),
                ordering: random.int(0..<4) == 0 ? nil : Double(random.int(-5...20)) / 2,
                title: titles[random.int(0..<titles.count)])
        case 12..<14: return .setCategory(todo, random.int(0..<4) == 0 ? nil : Int64(random.int(1...4)))
        case 14..<16:
            return .setPayload(todo, notes: random.int(0..<2) == 0 ? nil : titles[random.int(0..<titles.count)])
        case 16: return .noOpUpdate(todo)
        case 17: return .bulkUpdate(belowPriority: random.int(0...4), done: random.int(0..<2) == 0)
        case 18: return .bulkDelete(priority: random.int(-1...6))
        case 19: return .renameCategory(Int64(random.int(1...4)), categoryNames[random.int(0..<categoryNames.count)])
        case 20: return .moveCategory(Int64(random.int(1...4)), position: random.int(0...3))
        default: return .insertCategory(4, categoryNames[random.int(0..<categoryNames.count)])
        }
    }

    /// Runs the operation in `tx`; raw SQL uses `dialect`'s placeholders.
    public func apply(_ tx: any WriteTransaction, dialect: SQLDialect) throws {
        switch self {
        case .insertTodo(let todo): try tx.insert(todo)
        case .deleteTodo(let id): try tx.delete("Todo", key: .integer(id))
        case .setSortKeys(let id, let priority, let ordering, let title):
            try tx.update(
                "Todo", key: .integer(id),
                set: [
                    "priority": .integer(Int64(priority)), "ordering": ordering.map(Value.double) ?? .null,
                    "title": .text(title)
                ])
        case .setCategory(let id, let category):
            try tx.update("Todo", key: .integer(id), set: ["categoryID": category.map(Value.integer) ?? .null])
        case .setPayload(let id, let notes):
            try tx.update("Todo", key: .integer(id), set: ["notes": notes.map(Value.text) ?? .null])
        case .noOpUpdate(let id) where dialect.runsSQL:
            _ = try tx.execute(
                "UPDATE todo SET priority = priority WHERE id = \(dialect.placeholder(1))", [.integer(id)])
        case .noOpUpdate(let id):
            // Without SQL: the same update through the write API, the priority set to what it is.
            let rows = try tx.fetch(FetchRequest(entity: "Todo", predicate: .key("id") == id))
            if let priority = rows.first?["priority"] {
                try tx.update("Todo", key: .integer(id), set: ["priority": priority])
            }
        case .bulkUpdate(let below, let done):
            try tx.update("Todo", where: .key("priority") < below, set: ["done": .bool(done)])
        case .bulkDelete(let priority):
            try tx.delete("Todo", where: .key("priority") == priority)
        case .bulkDeleteFrom(let id):
            try tx.delete("Todo", where: .key("id") >= id)
        case .renameCategory(let id, let name):
            try tx.update("Category", key: .integer(id), set: ["name": .text(name)])
        case .moveCategory(let id, let position):
            try tx.update("Category", key: .integer(id), set: ["position": .integer(Int64(position))])
        case .insertCategory(let id, let name):
            try tx.upsert(["id": .integer(id), "name": .text(name), "position": 3], into: "Category")
        }
    }

    public var description: String {
        switch self {
        case .insertTodo(let todo):
            return "insert(\(todo.title), p\(todo.priority), c\(todo.categoryID.map(String.init) ?? "nil"))"
        case .deleteTodo(let id): return "delete(\(id))"
        case .setSortKeys(let id, let priority, let ordering, let title):
            return "sort(\(id): p\(priority) o\(ordering.map { "\($0)" } ?? "nil") '\(title)')"
        case .setCategory(let id, let category): return "category(\(id) → \(category.map(String.init) ?? "nil"))"
        case .setPayload(let id, let notes): return "notes(\(id): \(notes ?? "nil"))"
        case .noOpUpdate(let id): return "noop(\(id))"
        case .bulkUpdate(let below, let done): return "bulkUpdate(p<\(below) done=\(done))"
        case .bulkDelete(let priority): return "bulkDelete(p==\(priority))"
        case .bulkDeleteFrom(let id): return "bulkDelete(id>=\(id))"
        case .renameCategory(let id, let name): return "renameCategory(\(id) '\(name)')"
        case .moveCategory(let id, let position): return "moveCategory(\(id) → \(position))"
        case .insertCategory(let id, let name): return "upsertCategory(\(id) '\(name)')"
        }
    }
}
