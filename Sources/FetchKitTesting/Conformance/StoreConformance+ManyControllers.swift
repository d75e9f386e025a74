import FetchKit
import FetchKitFixtures
import Foundation
import Synchronization

/// The change router under many controllers: groups that share a request, controllers indexed by an
/// equality conjunct, controllers whose predicates are evaluated in memory one by one and controllers whose
/// predicates only the database can evaluate, side by side; and controllers added, switched and released
/// while transactions commit.
extension StoreConformance {
    static var manyControllerChecks: [Check] {
        [
            Check(
                name: "live results: many controllers, shared and indexed, in memory and in SQL",
                body: { try await $0.checkManyControllers(on: $1) }),
            Check(
                name: "live results: controllers added, switched and released while 2,000 transactions commit",
                body: { try await $0.checkControllersComeAndGo(on: $1) }),
            Check(
                name: "live results: the controllers of a shared request released at once from many tasks",
                body: { try await $0.checkSharedGroupReleasedConcurrently(on: $1) })
        ]
    }

    /// Requests beyond ``liveRequests``: indexed by an equality conjunct (also through a relationship, and an
    /// `IN` list), evaluated in memory without an index, ranges and prefixes, across to-many relationships, and one
    /// only the database can evaluate.
    static let routedRequests: [FetchRequest<Row>] = {
        func predicate(_ format: String) -> FetchPredicate { (try? FetchPredicate(format: format)) ?? .false }
        var requests: [FetchRequest<Row>] = (-1...6).map {
            FetchRequest(
                entity: "Todo", predicate: .key("priority") == Int64($0), sortDescriptors: [.ascending("title")])
        }
        requests += [
            FetchRequest(
                entity: "Todo", predicate: predicate("categoryID == 2 AND done == NO"),
                sortDescriptors: [.descending("ordering")]),
            FetchRequest(
                entity: "Todo", predicate: predicate("category.name == 'Work'"),
                sortDescriptors: [.ascending("priority")], fetchLimit: 3),
            FetchRequest(
                entity: "Todo", predicate: predicate("priority IN {1, 3, 5} AND title BEGINSWITH[c] 'a'"),
                sortDescriptors: [.ascending("title")]),
            FetchRequest(
                entity: "Todo", predicate: predicate("title BEGINSWITH[c] 'a' OR notes CONTAINS 'ta'"),
                sortDescriptors: [.ascending("id")]),
            FetchRequest(
                entity: "Todo", predicate: predicate("ordering BETWEEN {-1, 4} AND NOT done == YES"),
                sortDescriptors: [.ascending("category.name"), .ascending("title")],
                sectionNameKeyPath: "category.name"),
            FetchRequest(
                entity: "Todo", predicate: predicate("due == nil OR priority < 0"),
                sortDescriptors: [.descending("priority")], fetchLimit: 4),
            FetchRequest(
                entity: "Todo", predicate: predicate("category.todos.@count > 3"),
                sortDescriptors: [.ascending("title")]),
            // Range-indexed: open and closed ranges, several conjuncts on one column, a prefix, a window.
            FetchRequest(
                entity: "Todo", predicate: predicate("priority > 2"), sortDescriptors: [.ascending("title")],
                fetchLimit: 3),
            FetchRequest(
                entity: "Todo", predicate: predicate("ordering >= -2 AND ordering < 1.5 AND done == NO"),
                sortDescriptors: [.descending("ordering")]),
            FetchRequest(
                entity: "Todo", predicate: predicate("title BEGINSWITH 'a' OR title BEGINSWITH 'B'"),
                sortDescriptors: [.ascending("id")]),
            FetchRequest(
                entity: "Todo", predicate: predicate("title BEGINSWITH 'al' AND priority <= 3"),
                sortDescriptors: [.ascending("priority")]),
            FetchRequest(
                entity: "Todo", predicate: predicate("title BEGINSWITH 'Be*a'"), sortDescriptors: [.ascending("id")]),
            // Across a to-many relationship: a changed todo re-evaluates the categories it pointed at, before and
            // after (a category can also enter when a todo leaves it: NONE, a count falling below).
            FetchRequest(
                entity: "Category", predicate: predicate("ANY todos.priority > 3"),
                sortDescriptors: [.ascending("name")]),
            FetchRequest(
                entity: "Category", predicate: predicate("todos.@count > 2 AND position >= 1"),
                sortDescriptors: [.descending("position")]),
            FetchRequest(
                entity: "Category", predicate: predicate("NONE todos.done == YES OR todos.@count < 2"),
                sortDescriptors: [.ascending("id")]),
            FetchRequest(
                entity: "Category",
                predicate: predicate("SUBQUERY(todos, $t, $t.done == NO AND $t.priority >= 2).@count >= 1"),
                sortDescriptors: [.ascending("name")], fetchLimit: 2)
        ]
        return requests
    }()

    /// Every request of ``liveRequests`` three times (one engine each, two followers) and each of
    /// ``routedRequests``; after every transaction each controller equals a fresh fetch and every batch
    /// passes the simulator.
    func checkManyControllers(on store: any PersistentStore) async throws {
        let seed = ProcessInfo.processInfo.environment["FETCHKIT_SEED"].flatMap(UInt64.init) ?? 0x0A11_0C8E
        let transactions = min(600, liveTransactions)
        var random = SeededRandom(seed: seed)
        let requests = Self.liveRequests + Self.liveRequests + Self.liveRequests + Self.routedRequests
        let controllers = try await Self.liveControllers(on: store, requests: requests)
        defer { for (controller, _) in controllers { controller.delegate = nil } }
        var batches = 0
        for number in 1...transactions {
            var operations = (0..<random.int(1...3)).map { _ in RandomOperation.make(&random) }
            if number % 150 == 75 {
                // A batch job: 1,200 rows in one transaction (more than a thousand keys once forced a refetch of
                // every controller).
                operations = (1_000..<2_200).map { id in
                    .insertTodo(
                        Fixtures.TodoRecord(
                            id: Int64(id), title: RandomOperation.titles[random.int(0..<RandomOperation.titles.count)],
                            priority: random.int(-1...6), ordering: Double(random.int(-8...8)) / 2,
                            categoryID: random.int(0...3) == 0 ? nil : Int64(random.int(1...3))))
                }
            } else if number % 150 == 76 {
                operations = [.bulkDeleteFrom(1_000)]
            }
            do {
                try await store.write { [dialect = store.dialect, operations] tx in
                    for operation in operations { try operation.apply(tx, dialect: dialect) }
                }
            } catch is FetchKitError {}
            for (index, (controller, recorder)) in controllers.enumerated() {
                await controller.sync()
                do {
                    try await ResultsOracle.checkMatchesFreshFetch(controller, in: store)
                    try recorder.checkCallbackOrder()
                    for update in recorder.updates {
                        try ResultsOracle.check(update, primaryKey: "id")
                        batches += 1
                    }
                    recorder.reset()
                } catch {
                    throw ConformanceFailure(
                        "seed \(seed), transaction \(number), controller \(index) "
                            + "(\(requests[index].predicate)), operations \(operations.prefix(5)): \(error)")
                }
            }
        }
        try ConformanceFailure.require(batches > transactions, "the controllers emitted few batches (\(batches))")
        let routed = controllers.map(\.controller.statistics.routedUpdates).reduce(0, +)
        try ConformanceFailure.require(routed > transactions, "membership was rarely decided in memory (\(routed))")
    }

    /// A writer commits 2,000 random transactions while controllers are created (often with a request another
    /// controller already has), switched to another request and released — leaders of shared results
    /// included. Every batch passes the simulator; at the end every controller equals a fresh fetch.
    func checkControllersComeAndGo(on store: any PersistentStore) async throws {
        let seed = ProcessInfo.processInfo.environment["FETCHKIT_SEED"].flatMap(UInt64.init) ?? 0xC0_FFEE
        let requests = Array(Self.liveRequests.prefix(5)) + Array(Self.routedRequests.prefix(10))
        let done = Mutex(false)
        let writer = Task {
            defer { done.withLock { $0 = true } }
            var random = SeededRandom(seed: seed)
            return try await RandomOperation.writeTransactions(2_000, to: store, using: &random)
        }
        var random = SeededRandom(seed: seed &+ 1)
        var live: [(controller: ResultsController<Row>, recorder: ResultsRecorder<Row>, request: Int)] = []
        var created = 0
        var released = 0
        var switched = 0
        func check(_ entry: (controller: ResultsController<Row>, recorder: ResultsRecorder<Row>, request: Int)) throws {
            try entry.recorder.checkCallbackOrder()
            for update in entry.recorder.updates { try ResultsOracle.check(update, primaryKey: "id") }
            entry.recorder.reset()
        }
        var step = 0
        while step < 400 || !done.withLock({ $0 }) {
            step += 1
            switch random.int(0..<10) {
            case 0..<5 where live.count < 40:
                let index = random.int(0..<requests.count)
                let controller = ResultsController(store: store, request: requests[index])
                let recorder = ResultsRecorder<Row>()
                controller.delegate = recorder
                try await controller.performFetch()
                live.append((controller, recorder, index))
                created += 1
            case 5..<8 where !live.isEmpty:
                let entry = live.remove(at: random.int(0..<live.count))
                // No new batches reach the recorder; the one being delivered ends before sync() returns.
                entry.controller.delegate = nil
                await entry.controller.sync()
                try check(entry)
                released += 1
            case 8, 9:
                guard !live.isEmpty else { continue }
                let position = random.int(0..<live.count)
                let index = random.int(0..<requests.count)
                try await live[position].controller.setRequest(requests[index])
                live[position].request = index
                switched += 1
            default:
                break
            }
            if step.isMultiple(of: 10) { try await Task.sleep(for: .milliseconds(1)) }
        }
        let committed = try await writer.value
        for entry in live {
            await entry.controller.sync()
            do {
                try await ResultsOracle.checkMatchesFreshFetch(entry.controller, in: store)
                try check(entry)
            } catch {
                throw ConformanceFailure(
                    "seed \(seed), a controller of \(requests[entry.request].predicate) "
                        + "after \(committed) transactions (\(created) created, \(released) released, \(switched) "
                        + "switched): \(error)"
                )
            }
            entry.controller.delegate = nil
        }
        try ConformanceFailure.require(
            released > 20 && switched > 20, "too little churn: \(released) released, \(switched) switched")
    }

    /// Many controllers follow one request and are released at once from several tasks while batches are
    /// handed on: a follower that takes over, and a leader whose last reference goes while the group looks
    /// at it, must neither deadlock nor crash. A controller created afterwards still follows the database.
    func checkSharedGroupReleasedConcurrently(on store: any PersistentStore) async throws {
        let seed = ProcessInfo.processInfo.environment["FETCHKIT_SEED"].flatMap(UInt64.init) ?? 0x5_4A8E
        var random = SeededRandom(seed: seed)
        let request = Self.liveRequests[0]
        for round in 1...24 {
            var controllers: [ResultsController<Row>] = []
            for _ in 0..<300 {
                let controller = ResultsController(store: store, request: request)
                try await controller.performFetch()
                controllers.append(controller)
            }
            _ = try await RandomOperation.writeTransactions(3, to: store, using: &random)
            // Hand the references to eight tasks, which drop them at the same time as a writer commits.
            let slices = (0..<8).map { part in
                Array(controllers[(part * controllers.count / 8)..<((part + 1) * controllers.count / 8)])
            }
            controllers.removeAll()
            let boxes = slices.map { ControllerBox($0) }
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                for box in boxes { tasks.addTask { box.release() } }
                tasks.addTask { [seed] in
                    var random = SeededRandom(seed: seed &+ UInt64(round))
                    _ = try await RandomOperation.writeTransactions(3, to: store, using: &random)
                }
                try await tasks.waitForAll()
            }
        }
        let controller = ResultsController(store: store, request: request)
        let recorder = ResultsRecorder<Row>()
        controller.delegate = recorder
        try await controller.performFetch()
        _ = try await RandomOperation.writeTransactions(20, to: store, using: &random)
        await controller.sync()
        try await ResultsOracle.checkMatchesFreshFetch(controller, in: store)
        try recorder.checkCallbackOrder()
        for update in recorder.updates { try ResultsOracle.check(update, primaryKey: "id") }
        controller.delegate = nil
    }
}

/// Controllers handed to another task, which releases them.
private final class ControllerBox: Sendable {
    private let controllers: Mutex<[ResultsController<Row>]>

    init(_ controllers: [ResultsController<Row>]) {
        self.controllers = Mutex(controllers)
    }

    func release() {
        let released = controllers.withLock { controllers in
            defer { controllers = [] }
            return controllers
        }
        _ = released
    }
}
