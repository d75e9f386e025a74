import FetchKit
import FetchKitFixtures
import Foundation

/// Seed 003 (NSFetchedResultsController for UICollectionView): one batch as staged changes a collection
/// view applies stage by stage, and a fetchLimit that holds under churn.
enum BatchesDemo {
    static func run() async throws {
        let store = try await DemoStore.seeded()
        let controller = ResultsController(
            store: store,
            request: try FetchRequest<Todo>(
                sortBy: [SortDescriptor(\.category?.name), SortDescriptor(\.ordering)], sectionBy: \.category?.name))
        let recorder = ChangesetRecorder<ResultsController<Todo>>()
        controller.delegate = recorder
        try await controller.performFetch()
        print("FetchKit demo batches — staged changes for collection views, and a live fetchLimit\n")
        print(DemoRenderer.list(controller.snapshot))
        DemoStore.step("one transaction: insert, move and change, delete, update, rename a category")
        try await store.write { tx in
            try tx.insert(Todo(id: 30, title: "Staged", ordering: 0, category: try tx.category(named: "Errands")))
            var sink = try tx.todo(titled: "Fix sink")
            sink.category = try tx.category(named: "Work")
            sink.title = "Fix sink (moved)"
            try tx.update(sink)
            try tx.delete(try tx.todo(titled: "review PR"))
            var tests = try tx.todo(titled: "WRITE tests")
            tests.notes = "payload"
            try tx.update(tests)
            var home = try tx.category(named: "Home")
            home.name = "Alpha"
            try tx.update(home)
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
            request: try FetchRequest<Todo>(
                predicate: #Predicate { !$0.done },
                sortBy: [SortDescriptor(\.ordering), SortDescriptor(\.priority, order: .reverse)], fetchLimit: 3))
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
