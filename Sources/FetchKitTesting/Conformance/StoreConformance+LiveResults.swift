import FetchKit
import FetchKitFixtures
import Foundation

/// The model-based oracle check: thousands of random transactions against several live controllers; after
/// every commit each controller equals a fresh fetch and every batch passes ``ListSimulator``.
///
/// Reproduce a failure with the seed it reports: `FETCHKIT_SEED=<seed>` (and `FETCHKIT_TRANSACTIONS=<n>` to
/// change the number of transactions, by default ``StoreConformance/liveTransactions``).
extension StoreConformance {
    /// The requests of the live controllers: predicates, descending and NULL sorts, sections through a
    /// relationship, limits and an offset.
    public static let liveRequests: [FetchRequest<Row>] = {
        func predicate(_ format: String) -> FetchPredicate {
            (try? FetchPredicate(format: format)) ?? .false
        }
        return [
            FetchRequest(entity: "Todo", sortDescriptors: [.ascending("title")]),
            FetchRequest(
                entity: "Todo", predicate: predicate("done == NO"),
                sortDescriptors: [.descending("priority"), .ascending("title", caseInsensitive: true)]),
            FetchRequest(
                entity: "Todo", sortDescriptors: [.ascending("category.name"), .ascending("ordering")],
                sectionNameKeyPath: "category.name"),
            FetchRequest(
                entity: "Todo", predicate: predicate("priority > 2"),
                sortDescriptors: [.descending("ordering")], fetchLimit: 5),
            FetchRequest(
                entity: "Todo", predicate: predicate("notes CONTAINS[c] 'a' OR categoryID == nil"),
                sortDescriptors: [.ascending("due"), .descending("id")]),
            FetchRequest(
                entity: "Category", predicate: predicate("ANY todos.done == NO"),
                sortDescriptors: [.ascending("name")]),
            FetchRequest(
                entity: "Todo", predicate: predicate("category.position > 0"),
                sortDescriptors: [.ascending("done"), .descending("priority")], sectionNameKeyPath: "done"),
            FetchRequest(entity: "Todo", sortDescriptors: [.descending("id")], fetchLimit: 7, fetchOffset: 2),
            FetchRequest(
                entity: "Category", predicate: predicate("todos.@count >= 2"),
                sortDescriptors: [.descending("position")], sectionNameKeyPath: "name"),
            // Limited windows refilled by keyset queries: NULLs ascending and descending, sections.
            FetchRequest(entity: "Todo", sortDescriptors: [.ascending("due"), .ascending("title")], fetchLimit: 4),
            FetchRequest(
                entity: "Todo", predicate: predicate("done == NO"),
                sortDescriptors: [.ascending("category.name"), .descending("due")], fetchLimit: 6,
                sectionNameKeyPath: "category.name"),
            // SUBQUERY, aggregates and arithmetic: evaluated by the database on every change they may concern.
            FetchRequest(
                entity: "Category",
                predicate: predicate("SUBQUERY(todos, $t, $t.done == NO AND $t.priority > 2).@count > 0"),
                sortDescriptors: [.ascending("name")]),
            FetchRequest(
                entity: "Category", predicate: predicate("todos.@sum.priority > 3 OR todos.@max.ordering > 5"),
                sortDescriptors: [.descending("position")]),
            FetchRequest(
                entity: "Todo", predicate: predicate("priority * 2 > ordering AND category.todos.@count >= 2"),
                sortDescriptors: [.ascending("title")], fetchLimit: 5)
        ]
    }()

    /// A fetched controller over each of `requests` (by default ``liveRequests``) on `store`, with a recorder as
    /// its delegate.
    public static func liveControllers(on store: any PersistentStore, requests: [FetchRequest<Row>] = liveRequests)
        async throws -> [(controller: ResultsController<Row>, recorder: ResultsRecorder<Row>)]
    {
        try await fetchedWithRecorders(requests.map { ResultsController(store: store, request: $0) })
    }

    /// Each of `controllers` with a recorder as its delegate, fetched.
    static func fetchedWithRecorders<R: Sendable>(_ controllers: [ResultsController<R>]) async throws
        -> [(controller: ResultsController<R>, recorder: ResultsRecorder<R>)]
    {
        var recorded: [(controller: ResultsController<R>, recorder: ResultsRecorder<R>)] = []
        for controller in controllers {
            let recorder = ResultsRecorder<R>()
            controller.delegate = recorder
            try await controller.performFetch()
            recorded.append((controller, recorder))
        }
        return recorded
    }

    func checkLiveResults(on store: any PersistentStore) async throws {
        let seed = ProcessInfo.processInfo.environment["FETCHKIT_SEED"].flatMap(UInt64.init) ?? 0x5EED_F00D
        let transactions =
            ProcessInfo.processInfo.environment["FETCHKIT_TRANSACTIONS"].flatMap(Int.init) ?? liveTransactions
        var random = SeededRandom(seed: seed)

        let controllers = try await Self.liveControllers(on: store)

        var batches = 0
        for number in 1...transactions {
            let operations = try await Self.writeRandomTransaction(to: store, using: &random)
            for (index, (controller, recorder)) in controllers.enumerated() {
                await controller.sync()
                let context =
                    "seed \(seed), transaction \(number), controller \(index) "
                    + "(\(Self.liveRequests[index].predicate)), operations \(operations)"
                do {
                    try await ResultsOracle.checkMatchesFreshFetch(controller, in: store)
                    try recorder.checkCallbackOrder()
                    let primaryKey = Self.liveRequests[index].entityName == "Todo" ? "id" : "id"
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
            paths.map(\.incrementalUpdates).reduce(0, +) > transactions,
            "the incremental path was rarely taken: \(paths)")
        try ConformanceFailure.require(
            transactions < 500 || paths.map(\.keysetRefills).reduce(0, +) > 50,
            "full windows were not refilled by keyset queries: \(paths)")
    }
}

extension StoreConformance {
    /// Writes one transaction of one to four random operations, which one time in twenty rolls back on purpose.
    ///
    /// - Returns: The operations, whether they committed or not (a random write may violate a constraint, a
    ///   foreign key to a deleted category: it rolls back whole).
    static func writeRandomTransaction(to store: any PersistentStore, using random: inout SeededRandom)
        async throws -> [RandomOperation]
    {
        let dialect = store.dialect
        let operations = (0..<random.int(1...4)).map { _ in RandomOperation.make(&random) }
        let rollsBack = random.int(0..<20) == 0
        do {
            try await store.write { tx in
                for operation in operations { try operation.apply(tx, dialect: dialect) }
                if rollsBack { throw DeliberateRollback() }
            }
        } catch let error as FetchKitError {
            _ = error
        } catch is DeliberateRollback {}
        return operations
    }
}

/// A rollback the check causes on purpose.
struct DeliberateRollback: Error {}
