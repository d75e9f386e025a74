import FetchKit
import Foundation

/// Seed 004 (a general-purpose delegate): a reusable recorder, and each batch as a versioned JSON
/// changeset a remote client applies.
enum WireDemo {
    static func run() async throws {
        let store = try await DemoStore.seeded()
        let controller = ResultsController(
            store: store,
            request: try FetchRequest<Todo>(
                predicate: #Predicate { !$0.done },
                sortBy: [SortDescriptor(\.category?.name), SortDescriptor(\.title)], sectionBy: \.category?.name))
        let recorder = ChangesetRecorder<ResultsController<Todo>>()
        controller.delegate = recorder
        try await controller.performFetch()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        print(
            "FetchKit demo wire — ChangesetRecorder as the delegate; each batch as JSON for a remote client\n"
        )
        var client = WireList<Todo>()
        let first = try encoder.encode(WireChangeset(inserting: controller.snapshot))
        try client.apply(try JSONDecoder().decode(WireChangeset<Todo>.self, from: first))
        print("   the first message fills the client: \(first.count) bytes, \(client.sections.count) sections\n")
        let writes: [(String, @Sendable (any WriteTransaction) throws -> Void)] = [
            (
                "complete 'Write report'",
                { tx in
                    var todo = try tx.todo(titled: "Write report")
                    todo.done = true
                    try tx.update(todo)
                }
            ),
            (
                "add 'Call plumber' to Home",
                { tx in try tx.insert(Todo(title: "Call plumber", category: try tx.category(named: "Home"))) }
            )
        ]
        for (what, write) in writes {
            DemoStore.step(what)
            try await store.write(write)
            await controller.sync()
            for update in recorder.takeBatches() {
                let message = try encoder.encode(WireChangeset(update))
                print("   " + String(decoding: message, as: UTF8.self))
                try client.apply(try JSONDecoder().decode(WireChangeset<Todo>.self, from: message))
            }
            let same = client.sections.map(\.objects) == controller.sections.map { Array($0.objects) }
            print("   the Swift client (WireList) now equals the controller: \(same)\n")
        }
        print("   Browsers apply the same JSON with Clients/JavaScript/fetchkit-changeset.js.")
        await store.close()
    }
}
