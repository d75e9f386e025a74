import FetchKit
import FetchKitFixtures
import Foundation

/// Request switches racing multi-row writes: a multi-controller's transition, or a composite part's
/// `setRequest`, started at varying moments around a transaction that inserts one todo and updates another.
/// After each round and `sync()` the results equal a fresh fetch, and every batch, applied in turn to a model of
/// the UI, leads to them: a switch never keeps half a transaction.
extension StoreConformance {
    /// The transition race checks.
    static var transitionRaceChecks: [Check] {
        [
            Check(
                name: "multi: transitions racing a transaction that inserts a row and updates another end exact",
                body: { try await $0.checkMultiTransitionsRacingWrites(on: $1, rounds: 1_200) }),
            Check(
                name: "composite: a part's request switches racing multi-row transactions end exact",
                body: { try await $0.checkCompositeSwitchesRacingWrites(on: $1, rounds: 1_200) })
        ]
    }

    /// How many bystander controllers (``bystanders(_:on:)``) a race runs beside.
    static let raceBystanders = 300

    /// The requests the racing switches go between: filters, sectionings by the entity's own attributes
    /// (whose plans the change router bounds by key), one through a related table, and a range.
    static func racingRequests() throws -> [String: FetchRequest<Row>] {
        func predicate(_ format: String) throws -> FetchPredicate { try FetchPredicate(format: format) }
        return [
            "open": FetchRequest(
                entity: "Todo", predicate: try predicate("done == NO"), sortDescriptors: [.ascending("id")]),
            "done": FetchRequest(
                entity: "Todo", predicate: try predicate("done == YES"),
                sortDescriptors: [.descending("priority"), .ascending("id")]),
            "byDone": FetchRequest(
                entity: "Todo", sortDescriptors: [.ascending("done"), .descending("priority"), .ascending("id")],
                sectionNameKeyPath: "done"),
            "byPriority": FetchRequest(
                entity: "Todo", sortDescriptors: [.ascending("priority"), .ascending("id")],
                sectionNameKeyPath: "priority"),
            "byCategory": FetchRequest(
                entity: "Todo", sortDescriptors: [.ascending("category.name"), .ascending("id")],
                sectionNameKeyPath: "category.name"),
            "urgentByDone": FetchRequest(
                entity: "Todo", predicate: try predicate("priority >= 2"),
                sortDescriptors: [.ascending("done"), .ascending("id")], sectionNameKeyPath: "done")
        ]
    }

    /// One racing transaction: a new todo, and new values for an existing one (which may move it between
    /// sections, or into or out of a filter).
    struct RacingWrite: Sendable, CustomStringConvertible {
        var insert: Fixtures.TodoRecord
        var updated: Int64
        var values: Row
        /// A todo inserted earlier that the transaction deletes too, keeping the table small.
        var deleted: Int64?

        var description: String {
            "insert \(insert.title) (done \(insert.done), priority \(insert.priority)), update \(updated) to "
                + "\(values)" + (deleted.map { ", delete \($0)" } ?? "")
        }

        /// A transaction of round `round` updating one of `keys`.
        static func make(_ random: inout SeededRandom, round: Int, keys: [Int64], deleting: Int64?) -> RacingWrite {
            let categories: [Int64?] = [1, 2, 3, nil]
            let insert = Fixtures.TodoRecord(
                title: "race \(round)", priority: random.int(0..<5), ordering: Double(random.int(0..<100)),
                done: random.int(0..<2) == 0, categoryID: categories[random.int(0..<categories.count)])
            let values = Row([
                ("done", .bool(random.int(0..<2) == 0)), ("priority", .integer(Int64(random.int(0..<5)))),
                ("title", .text("updated in \(round)"))
            ])
            return RacingWrite(
                insert: insert, updated: keys[random.int(0..<keys.count)], values: values, deleted: deleting)
        }

        /// Commits the transaction; returns the new todo's key.
        func commit(to store: any PersistentStore) async throws -> Int64 {
            try await store.write { [self] tx in
                let inserted = try tx.insert(insert)
                try tx.update("Todo", key: .integer(updated), set: values)
                if let deleted { try tx.delete("Todo", key: .integer(deleted)) }
                return inserted.id ?? -1
            }
        }
    }

    /// Runs `body` after `yields` turns of the scheduler, so a racing pair starts in varying order.
    static func after<T: Sendable>(_ yields: Int, _ body: @Sendable () async throws -> T) async throws -> T {
        for _ in 0..<yields { await Task.yield() }
        return try await body()
    }

    /// How a round starts the switch and the write: which goes first, and how many scheduler turns apart.
    struct RaceTiming: Sendable {
        var switchFirst: Bool
        var lead: Int

        static func make(_ random: inout SeededRandom) -> RaceTiming {
            // Mostly close together: the window that matters is a few scheduler turns wide.
            let lead = random.int(0..<4) == 0 ? random.int(0..<64) : random.int(0..<8)
            return RaceTiming(switchFirst: random.int(0..<2) == 0, lead: lead)
        }
    }

    /// Keys to update, and which inserted todo a round deletes: the sample todos stay, the inserted ones are
    /// deleted once more than `keep` wait, oldest first.
    struct RaceKeys {
        var sample: [Int64] = Array(1...10)
        var inserted: [Int64] = []
        let keep = 24

        var all: [Int64] { sample + inserted }

        mutating func nextDeleted() -> Int64? {
            inserted.count > keep ? inserted.removeFirst() : nil
        }
    }

    /// `count` live controllers of todos whose titles contain a text no todo's has: they hold nothing, and
    /// routing a change evaluates each one's predicate on every re-read row — a server's controller per client,
    /// which makes the router's work between reading its routes and handing the change over take a while.
    static func bystanders(_ count: Int, on store: any PersistentStore) async throws -> [ResultsController<Row>] {
        var controllers: [ResultsController<Row>] = []
        for index in 0..<count {
            let controller = ResultsController(
                store: store,
                request: FetchRequest(
                    entity: "Todo",
                    predicate: .comparison(.init(.key(.init("title")), .contains, .value(.text("absent \(index)")))),
                    sortDescriptors: [.ascending("id")]))
            try await controller.performFetch()
            controllers.append(controller)
        }
        return controllers
    }

    func checkMultiTransitionsRacingWrites(on store: any PersistentStore, rounds: Int) async throws {
        let bystanders = try await Self.bystanders(Self.raceBystanders, on: store)
        let requests = try Self.racingRequests()
        let names = requests.keys.sorted()
        let multi = try MultiResultsController(store: store, requests: requests, initial: "open")
        let recorder = MultiResultsRecorder<Row>()
        multi.delegate = recorder
        try await multi.performFetch()
        var shown = ResultsOracle.sections(multi.snapshot)
        let seed = ProcessInfo.processInfo.environment["FETCHKIT_SEED"].flatMap(UInt64.init) ?? 0x7_2A45
        var random = SeededRandom(seed: seed)
        var keys = RaceKeys()
        for round in 0..<rounds {
            // Mostly to another request; now and then to the same one (a refetch that keeps the plan).
            let target = random.int(0..<5) == 0 ? multi.currentName : names[random.int(0..<names.count)]
            let write = RacingWrite.make(&random, round: round, keys: keys.all, deleting: keys.nextDeleted())
            let timing = RaceTiming.make(&random)
            async let switched: Void = Self.after(timing.switchFirst ? 0 : timing.lead) {
                try await multi.transition(to: target)
            }
            async let written = Self.after(timing.switchFirst ? timing.lead : 0) {
                try await write.commit(to: store)
            }
            let (_, key) = try await (switched, written)
            keys.inserted.append(key)
            await multi.sync()
            let context =
                "round \(round) (seed \(seed)): transition to \(target) "
                + "\(timing.switchFirst ? "first" : "after \(timing.lead) turns"), racing \(write)"
            try recorder.checkCallbackOrder()
            for update in recorder.updates {
                try ResultsOracle.check(update, primaryKey: "id")
                guard let changeset = update.changeset else { continue }
                do {
                    shown = try ListSimulator.apply(
                        changeset, to: shown, expecting: ResultsOracle.sections(update.snapshot),
                        identifiedBy: { $0["id"] ?? .null })
                } catch {
                    throw ConformanceFailure("\(context): a batch does not follow the one before it: \(error)")
                }
            }
            recorder.reset()
            do {
                try await ResultsOracle.checkMatchesFreshFetch(multi.snapshot, of: multi.request, in: store)
            } catch {
                throw ConformanceFailure("\(context): after sync() the controller is stale: \(error)")
            }
            try expect(
                multi.currentName == target && multi.status.isFollowing,
                "\(context): current \(multi.currentName), status \(multi.status)")
            try expect(
                shown.map(\.section) == multi.sections.map(\.name)
                    && shown.map { $0.rows.map { $0["id"] ?? .null } }
                        == multi.sections.map {
                            $0.objects.map { $0["id"] ?? .null }
                        },
                "\(context): the batches lead to \(shown.map(\.section)), the controller shows "
                    + "\(multi.sections.map(\.name))")
        }
        multi.delegate = nil
        try expect(bystanders.allSatisfy { $0.fetchedObjects.isEmpty }, "a bystander holds a todo")
    }
}
