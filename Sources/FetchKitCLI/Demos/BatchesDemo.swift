import FetchKit
import FetchKitFixtures

/// Seed 003 (NSFetchedResultsController for UICollectionView): one batch as staged changes a collection
/// view applies stage by stage, and a fetchLimit that holds under churn.
enum BatchesDemo {
    static func run() async throws {
        let store = try await DemoStore.seeded()
        let controller = ResultsController(
            store: store,
            request: FetchRequest(
                entity: "Todo", sortDescriptors: [.ascending("category.name"), .ascending("ordering")],
                sectionNameKeyPath: "category.name"))
        let recorder = ChangesetRecorder<ResultsController<Row>>()
        controller.delegate = recorder
        try await controller.performFetch()
        print("FetchKit demo batches — staged changes for collection views, and a live fetchLimit\n")
        print(DemoRenderer.list(controller.snapshot))
        DemoStore.step("one transaction: insert, move and change, delete, update, rename a category")
        try await store.write { tx in
            _ = try tx.insert(Fixtures.TodoRecord(id: 30, title: "Staged", ordering: 0, categoryID: 3))
            _ = try tx.update("Todo", key: 5, set: ["categoryID": 1, "title": "Fix sink (moved)"])
            _ = try tx.delete("Todo", key: 2)
            _ = try tx.update("Todo", key: 7, set: ["notes": "payload"])
            _ = try tx.update("Category", key: 2, set: ["name": "Alpha"])
        }
        await controller.sync()
        for update in recorder.takeBatches() {
            for (number, step) in try update.staged().enumerated() {
                let change = step.stage.changeset
                print(
                    "   stage \(number + 1) \(step.stage.kind.rawValue): sections −\(change.sectionDeletes) "
                        + "+\(change.sectionInserts) "
                        + "moved \(change.sectionMoves.map { "\($0.from)→\($0.to)" }); rows −\(change.rowDeletes) "
                        + "+\(change.rowInserts) "
                        + "moved \(change.rowMoves.map { "\($0.from)→\($0.to)" }) updated "
                        + "\(change.rowUpdates.map(\.from))"
                )
                let sections = step.sections.map { "\($0.name.isEmpty ? "(none)" : $0.name): \($0.objects.count)" }
                print("      then \(sections.joined(separator: ", "))")
            }
        }
        print("")
        DemoStore.step("a window of 3 (fetchLimit) under 200 random transactions")
        let window = ResultsController(
            store: store,
            request: FetchRequest(
                entity: "Todo", predicate: try FetchPredicate(format: "done == NO"),
                sortDescriptors: [.ascending("ordering"), .descending("priority")], fetchLimit: 3))
        try await window.performFetch()
        var random = SeededRandom(seed: 3)
        var largest = 0
        var exact = 0
        for _ in 0..<200 {
            try await RandomOperation.writeTransactions(1, to: store, using: &random)
            await window.sync()
            largest = max(largest, window.fetchedObjects.count)
            if try await store.fetch(window.request) == window.fetchedObjects { exact += 1 }
        }
        print("   largest window: \(largest) rows; equal to a fresh fetch after \(exact) of 200 transactions")
        print("   \(window.statistics)")
        await store.close()
    }
}
