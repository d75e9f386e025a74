import FetchKit
import FetchKitFixtures
import FetchKitInMemory
import FetchKitTesting
import Synchronization
import Testing

/// A delegate's data source — the controller's `sections`, `object(at:)`, `fetchedObjects` — read inside the
/// callbacks of a batch that another writer's commit brings while the user's drop waits to be written: it must
/// be the batch's results, with the drop, as the table the delegate updates shows them.
@Suite struct UserMoveDataSourceTests {
    typealias Shown = [[Value]]

    /// A table on its own actor: it applies each batch (``ListSimulator``) and records what the controller's
    /// accessors returned in each callback.
    actor Table {
        typealias Read = (callback: String, sections: Shown, fetched: [Value], byPath: Shown)
        var shown: Shown = []
        /// What the accessors returned in the callbacks of the batch being delivered.
        var reads: [Read] = []
        /// Each batch's reads, with the batch's results.
        var checked: [(reads: [Read], after: Shown)] = []
        var failures: [String] = []

        func reset(_ snapshot: ResultsSnapshot<Row>) { shown = Table.keys(snapshot) }

        func read(_ callback: String, _ controller: ResultsController<Row>) {
            let sections = controller.sections.map { $0.objects.map { $0["id"] ?? .null } }
            let byPath = sections.indices.map { section in
                sections[section].indices.map {
                    controller.object(at: RowPath(section: section, row: $0))?["id"] ?? .null
                }
            }
            reads.append((callback, sections, controller.fetchedObjects.map { $0["id"] ?? .null }, byPath))
        }

        func apply(_ update: ResultsBatch<Row>) {
            checked.append((reads, Table.keys(update.snapshot)))
            reads = []
            do {
                try ResultsOracle.check(update, primaryKey: "id")
                guard let changeset = update.changeset else { return }
                shown = try ListSimulator.apply(changeset, to: shown, expecting: Table.keys(update.snapshot))
            } catch {
                failures.append("\(error)")
            }
        }

        /// The user drops the first row of section `from` at the top of section `to`, and tells the controller
        /// in the same turn.
        func drop(from: Int, to: Int, controller: ResultsController<Row>) -> Task<Void, any Error> {
            let key = shown[from].removeFirst()
            shown[to].insert(key, at: 0)
            return Task.immediate {
                try await controller.userMovedRow(
                    from: RowPath(section: from, row: 0), to: RowPath(section: to, row: 0))
            }
        }

        static func keys(_ snapshot: ResultsSnapshot<Row>) -> Shown {
            snapshot.sections.map { $0.objects.map { $0["id"] ?? .null } }
        }
    }

    final class Adapter: ResultsControllerDelegate, Sendable {
        let table: Table
        init(table: Table) { self.table = table }

        func controllerWillChangeContent(_ controller: ResultsController<Row>) {
            table.assumeIsolated { $0.read("willChange", controller) }
        }
        func controller(
            _ controller: ResultsController<Row>, didChange object: Row, at rowPath: RowPath?,
            for type: ResultsChangeType, newRowPath: RowPath?
        ) {
            table.assumeIsolated { $0.read("\(type) \(object["id"] ?? .null)", controller) }
        }
        func controllerDidChangeContent(_ controller: ResultsController<Row>) {
            table.assumeIsolated { $0.read("didChange", controller) }
        }
        func controller(_ controller: ResultsController<Row>, didApply update: ResultsBatch<Row>) {
            table.assumeIsolated { $0.apply(update) }
        }
    }

    /// The writer's commit is routed while the controller's queue is held, the user drops a row, then the
    /// queue runs: the writer's batch is delivered with the drop installed and not written yet.
    @Test func aBatchDeliveredBeforeTheDropsWriteReadsTheDropInEveryCallback() async throws {
        let store = InMemoryStore(schema: Fixtures.schema)
        try await store.write { tx in try Fixtures.insertSampleData(tx) }
        let controller = ResultsController(
            store: store,
            request: FetchRequest(
                entity: "Todo", sortDescriptors: [.ascending("category.name"), .ascending("ordering")],
                sectionNameKeyPath: "category.name"))
        let table = Table()
        let adapter = Adapter(table: table)
        controller.setDelegate(adapter, isolation: table)
        try await controller.performFetch()
        await table.reset(controller.snapshot)
        let names = controller.sections.map(\.name)
        let home = try #require(names.firstIndex(of: "Home"))
        let errands = try #require(names.firstIndex(of: "Errands"))
        let hold = await controller.holdProcessing()
        // Another writer adds a todo to Home, the section the user drags from.
        try await store.write { tx in
            _ = try tx.insert(
                ["title": "another", "priority": 1, "done": false, "categoryID": 2, "ordering": 50.0], into: "Todo")
        }
        await hold.waitForRoutedChanges()
        let move = await table.drop(from: home, to: errands, controller: controller)
        hold.release()
        try await move.value
        await controller.sync()

        let (checked, failures, shown) = await (table.checked, table.failures, table.shown)
        #expect(failures.isEmpty, "batches that do not apply to the table: \(failures)")
        #expect(!checked.isEmpty, "the writer's batch never reached the table")
        for (reads, after) in checked {
            #expect(reads.count >= 3)
            for read in reads {
                #expect(read.sections == after, "\(read.callback): sections \(read.sections), the batch \(after)")
                #expect(read.fetched == after.flatMap { $0 }, "\(read.callback): fetchedObjects")
                #expect(read.byPath == after, "\(read.callback): object(at:)")
            }
        }
        // Outside the callbacks, the controller's own results: equal to the table and to a fresh fetch.
        #expect(shown == Table.keys(controller.snapshot))
        try await ResultsOracle.checkMatchesFreshFetch(controller, in: store)
        withExtendedLifetime(adapter) {}
    }
}
