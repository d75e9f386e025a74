@_spi(Backend) import FetchKit
import Foundation

/// The model-based oracle check: thousands of random transactions against several live controllers; after
/// every commit each controller equals a fresh fetch and every batch passes ``ListSimulator``.
///
/// Reproduce a failure with the seed it reports: `FETCHKIT_SEED=<seed>` (and `FETCHKIT_TRANSACTIONS=<n>` to
/// change the number of transactions, by default ``StoreConformance/liveTransactions``).
extension StoreConformance {
    /// The requests of the live controllers: predicates, descending and NULL sorts, sections through a
    /// relationship, limits and an offset.
    public static let liveRequests: [FetchRequest] = {
        func predicate(_ format: String) -> FetchPredicate {
            (try? FetchPredicate(format: format)) ?? .false
        }
        return [
            FetchRequest(entity: "Task", sortDescriptors: [.ascending("title")]),
            FetchRequest(entity: "Task", predicate: predicate("done == NO"),
                         sortDescriptors: [.descending("priority"), .ascending("title", caseInsensitive: true)]),
            FetchRequest(entity: "Task", sortDescriptors: [.ascending("category.name"), .ascending("ordering")],
                         sectionNameKeyPath: "category.name"),
            FetchRequest(entity: "Task", predicate: predicate("priority > 2"),
                         sortDescriptors: [.descending("ordering")], fetchLimit: 5),
            FetchRequest(entity: "Task", predicate: predicate("notes CONTAINS[c] 'a' OR categoryID == nil"),
                         sortDescriptors: [.ascending("due"), .descending("id")]),
            FetchRequest(entity: "Category", predicate: predicate("ANY tasks.done == NO"),
                         sortDescriptors: [.ascending("name")]),
            FetchRequest(entity: "Task", predicate: predicate("category.position > 0"),
                         sortDescriptors: [.ascending("done"), .descending("priority")], sectionNameKeyPath: "done"),
            FetchRequest(entity: "Task", sortDescriptors: [.descending("id")], fetchLimit: 7, fetchOffset: 2),
            FetchRequest(entity: "Category", predicate: predicate("tasks.@count >= 2"),
                         sortDescriptors: [.descending("position")], sectionNameKeyPath: "name"),
            // Limited windows refilled by keyset queries: NULLs ascending and descending, sections.
            FetchRequest(entity: "Task", sortDescriptors: [.ascending("due"), .ascending("title")], fetchLimit: 4),
            FetchRequest(entity: "Task", predicate: predicate("done == NO"),
                         sortDescriptors: [.ascending("category.name"), .descending("due")], fetchLimit: 6,
                         sectionNameKeyPath: "category.name"),
            // SUBQUERY, aggregates and arithmetic: evaluated by the database on every change they may concern.
            FetchRequest(entity: "Category",
                         predicate: predicate("SUBQUERY(tasks, $t, $t.done == NO AND $t.priority > 2).@count > 0"),
                         sortDescriptors: [.ascending("name")]),
            FetchRequest(entity: "Category", predicate: predicate("tasks.@sum.priority > 3 OR tasks.@max.ordering > 5"),
                         sortDescriptors: [.descending("position")]),
            FetchRequest(entity: "Task", predicate: predicate("priority * 2 > ordering AND category.tasks.@count >= 2"),
                         sortDescriptors: [.ascending("title")], fetchLimit: 5),
        ]
    }()

    /// A fetched controller over each of `requests` (by default ``liveRequests``) on `store`, with a recorder as
    /// its delegate.
    public static func liveControllers(on store: any PersistentStore, requests: [FetchRequest] = liveRequests)
        async throws -> [(controller: ResultsController<Row>, recorder: ResultsRecorder<Row>)]
    {
        var controllers: [(controller: ResultsController<Row>, recorder: ResultsRecorder<Row>)] = []
        for request in requests {
            let controller = ResultsController(store: store, request: request)
            let recorder = ResultsRecorder<Row>()
            controller.delegate = recorder
            try await controller.performFetch()
            controllers.append((controller, recorder))
        }
        return controllers
    }

    func checkLiveResults(on store: any PersistentStore) async throws {
        let dialect = store.dialect
        let seed = ProcessInfo.processInfo.environment["FETCHKIT_SEED"].flatMap(UInt64.init) ?? 0x5EED_F00D
        let transactions = ProcessInfo.processInfo.environment["FETCHKIT_TRANSACTIONS"].flatMap(Int.init) ?? liveTransactions
        var random = SeededRandom(seed: seed)

        let controllers = try await Self.liveControllers(on: store)

        var batches = 0
        for number in 1...transactions {
            let operations = (0..<random.int(1...4)).map { _ in RandomOperation.make(&random) }
            let rollsBack = random.int(0..<20) == 0
            do {
                try await store.write { tx in
                    for operation in operations { try operation.apply(tx, dialect: dialect) }
                    if rollsBack { throw DeliberateRollback() }
                }
            } catch let error as FetchKitError {
                // A random write may violate a constraint (a foreign key to a deleted category): it rolls back whole.
                _ = error
            } catch is DeliberateRollback {}

            for (index, (controller, recorder)) in controllers.enumerated() {
                await controller.sync()
                let context = "seed \(seed), transaction \(number), controller \(index) "
                    + "(\(Self.liveRequests[index].predicate)), operations \(operations)"
                do {
                    try await ResultsOracle.checkMatchesFreshFetch(controller, in: store)
                    try recorder.checkCallbackOrder()
                    let primaryKey = Self.liveRequests[index].entityName == "Task" ? "id" : "id"
                    for update in recorder.updates {
                        try ResultsOracle.check(update, primaryKey: primaryKey)
                        batches += 1
                    }
                    recorder.reset()
                } catch {
                    for (controller, _) in controllers { controller.delegate = nil }
                    throw ConformanceFailure("\(context): \(error)")
                }
            }
        }
        try ConformanceFailure.require(batches > transactions, "the controllers emitted few batches (\(batches))")
        let paths = controllers.map { controller, _ in controller.statistics }
        try ConformanceFailure.require(
            paths.map(\.incrementalUpdates).reduce(0, +) > transactions, "the incremental path was rarely taken: \(paths)")
        try ConformanceFailure.require(
            transactions < 500 || paths.map(\.keysetRefills).reduce(0, +) > 50,
            "full windows were not refilled by keyset queries: \(paths)")
    }
}

/// A rollback the check causes on purpose.
struct DeliberateRollback: Error {}

/// One random write of the live-results check.
public enum RandomOperation: CustomStringConvertible, Sendable {
    case insertTask(Fixtures.TaskRecord)
    case deleteTask(Int64)
    case setSortKeys(Int64, priority: Int, ordering: Double?, title: String)
    case setCategory(Int64, Int64?)
    case setPayload(Int64, notes: String?)
    case noOpUpdate(Int64)
    case bulkUpdate(belowPriority: Int, done: Bool)
    case bulkDelete(priority: Int)
    case renameCategory(Int64, String)
    case moveCategory(Int64, position: Int)
    case insertCategory(Int64, String)

    static let titles = ["alpha", "Beta", "gamma", "Delta", "épée", "zeta", "Alpha", "beta", "ω", ""]
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
                try await store.write { tx in for operation in operations { try operation.apply(tx, dialect: dialect) } }
                committed += 1
            } catch is FetchKitError {}
        }
        return committed
    }

    /// A random operation.
    public static func make(_ random: inout SeededRandom) -> RandomOperation {
        let task = Int64(random.int(1...40))
        switch random.int(0..<22) {
        case 0..<5:
            return .insertTask(Fixtures.TaskRecord(
                id: nil, title: titles[random.int(0..<titles.count)],
                notes: random.int(0..<3) == 0 ? nil : titles[random.int(0..<titles.count)] + " a",
                priority: random.int(-1...6), ordering: random.int(0..<4) == 0 ? nil : Double(random.int(-5...20)) / 2,
                done: random.int(0..<2) == 0,
                due: random.int(0..<3) == 0 ? nil : Date(microsecondsSince1970: Int64(random.int(0...5)) * 1_000_001),
                categoryID: random.int(0..<5) == 0 ? nil : Int64(random.int(1...4))))
        case 5..<8: return .deleteTask(task)
        case 8..<12:
            return .setSortKeys(task, priority: random.int(-1...6),
                                ordering: random.int(0..<4) == 0 ? nil : Double(random.int(-5...20)) / 2,
                                title: titles[random.int(0..<titles.count)])
        case 12..<14: return .setCategory(task, random.int(0..<4) == 0 ? nil : Int64(random.int(1...4)))
        case 14..<16: return .setPayload(task, notes: random.int(0..<2) == 0 ? nil : titles[random.int(0..<titles.count)])
        case 16: return .noOpUpdate(task)
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
        case .insertTask(let task): try tx.insert(task)
        case .deleteTask(let id): try tx.delete("Task", key: .integer(id))
        case .setSortKeys(let id, let priority, let ordering, let title):
            try tx.update("Task", key: .integer(id), set: [
                "priority": .integer(Int64(priority)), "ordering": ordering.map(Value.double) ?? .null,
                "title": .text(title),
            ])
        case .setCategory(let id, let category):
            try tx.update("Task", key: .integer(id), set: ["categoryID": category.map(Value.integer) ?? .null])
        case .setPayload(let id, let notes):
            try tx.update("Task", key: .integer(id), set: ["notes": notes.map(Value.text) ?? .null])
        case .noOpUpdate(let id):
            _ = try tx.execute("UPDATE task SET priority = priority WHERE id = \(dialect.placeholder(1))", [.integer(id)])
        case .bulkUpdate(let below, let done):
            try tx.update("Task", where: .key("priority") < below, set: ["done": .bool(done)])
        case .bulkDelete(let priority):
            try tx.delete("Task", where: .key("priority") == priority)
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
        case .insertTask(let task): return "insert(\(task.title), p\(task.priority), c\(task.categoryID.map(String.init) ?? "nil"))"
        case .deleteTask(let id): return "delete(\(id))"
        case .setSortKeys(let id, let priority, let ordering, let title):
            return "sort(\(id): p\(priority) o\(ordering.map { "\($0)" } ?? "nil") '\(title)')"
        case .setCategory(let id, let category): return "category(\(id) → \(category.map(String.init) ?? "nil"))"
        case .setPayload(let id, let notes): return "notes(\(id): \(notes ?? "nil"))"
        case .noOpUpdate(let id): return "noop(\(id))"
        case .bulkUpdate(let below, let done): return "bulkUpdate(p<\(below) done=\(done))"
        case .bulkDelete(let priority): return "bulkDelete(p==\(priority))"
        case .renameCategory(let id, let name): return "renameCategory(\(id) '\(name)')"
        case .moveCategory(let id, let position): return "moveCategory(\(id) → \(position))"
        case .insertCategory(let id, let name): return "upsertCategory(\(id) '\(name)')"
        }
    }
}
