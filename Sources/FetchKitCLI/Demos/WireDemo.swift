import FetchKit
import FetchKitFixtures
import Foundation

/// Seed 004 (a general-purpose delegate): a reusable recorder, and each batch as a versioned JSON
/// changeset a remote client applies.
enum WireDemo {
    static func run() async throws {
        let store = try await DemoStore.seeded()
        let controller = ResultsController(
            store: store,
            request: FetchRequest(
                Fixtures.TodoRecord.self, predicate: try FetchPredicate(format: "done == NO"),
                sortDescriptors: [.ascending("category.name"), .ascending("title")], sectionNameKeyPath: "category.name"
            ))
        let recorder = ChangesetRecorder<ResultsController<Fixtures.TodoRecord>>()
        controller.delegate = recorder
        try await controller.performFetch()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        print(
            "FetchKit demo wire — ChangesetRecorder as the delegate; each batch as JSON for a remote client\n"
        )
        var client = WireList<Fixtures.TodoRecord>()
        let first = try encoder.encode(WireChangeset(inserting: controller.snapshot))
        try client.apply(try JSONDecoder().decode(WireChangeset<Fixtures.TodoRecord>.self, from: first))
        print("   the first message fills the client: \(first.count) bytes, \(client.sections.count) sections\n")
        let writes: [(String, @Sendable (any WriteTransaction) throws -> Void)] = [
            ("complete 'Write report'", { tx in _ = try tx.update("Todo", key: 1, set: ["done": true]) }),
            (
                "add 'Call plumber' to Home",
                { tx in _ = try tx.insert(Fixtures.TodoRecord(title: "Call plumber", categoryID: 2)) }
            )
        ]
        for (what, write) in writes {
            DemoStore.step(what)
            try await store.write(write)
            await controller.sync()
            for update in recorder.takeBatches() {
                let message = try encoder.encode(WireChangeset(update))
                print("   " + String(decoding: message, as: UTF8.self))
                try client.apply(try JSONDecoder().decode(WireChangeset<Fixtures.TodoRecord>.self, from: message))
            }
            let same = client.sections.map(\.objects) == controller.sections.map { Array($0.objects) }
            print("   the Swift client (WireList) now equals the controller: \(same)\n")
        }
        print("   Browsers apply the same JSON with Clients/JavaScript/fetchkit-changeset.js.")
        await store.close()
    }
}
