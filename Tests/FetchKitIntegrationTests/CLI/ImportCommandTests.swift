import FetchKit
import FetchKitFixtures
import FetchKitSQLite
import FetchKitTestSupport
import FetchKitTesting
import Foundation
import Testing

/// `fetchkit import`: JSON Lines into an existing table, in one transaction, converted to the columns' types,
/// with its progress; a bad line imports nothing and is named; a live controller gets the import as one batch.
@Suite("fetchkit import")
struct ImportCommandTests {
    @Test func importsEveryRowInOneTransactionAndALiveControllerSeesThem() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("app.sqlite")
        let store = try await SQLiteStore.open(path: path, schema: Fixtures.schema, options: .testing())
        try await store.write { tx in try Fixtures.insertSampleData(tx) }
        let controller = ResultsController(
            store: store,
            request: FetchRequest<Row>(entity: "Todo", sortDescriptors: [.ascending("id")]))
        let recorder = ResultsRecorder<Row>()
        controller.delegate = recorder
        try await controller.performFetch()
        var lines = (0..<2_500).map { index in
            #"{"id": \#(1_000 + index), "title": "imported \#(index)", "done": \#(index % 2 == 0), "#
                + #""priority": \#(index % 5)}"#
        }
        lines.insert("", at: 10)  // blank lines are skipped
        let file = directory.path("todos.jsonl")
        try Data(lines.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: file))
        let run = try await FetchKitBinary.runShowingProgress([
            "import", "--store", "sqlite://\(path)", "--entity", "todo", file
        ])
        #expect(run.status == 0, "\(run.output)")
        // Updates come at most ten times a second: the last one always.
        #expect(run.output.contains("read 2,501 lines"), "\(run.output)")
        #expect(run.output.contains("imported 2,500 of 2,500 rows"), "\(run.output)")
        #expect(run.output.contains("Imported 2500 rows into todo."), "\(run.output)")
        let imported = try await store.fetch(
            FetchRequest<Row>(
                entity: "Todo", predicate: .key("id") >= Int64(1_000), sortDescriptors: [.ascending("id")]))
        #expect(imported.count == 2_500)
        #expect(imported.first?["done"] == .bool(true) && imported.first?["priority"] == .integer(0))
        // One transaction: one change, one batch.
        let batches = try await ResultsOracle.converge(controller, recorder, in: store, within: .seconds(30))
        #expect(batches == 1, "the import reached the controller as \(batches) batches")
        await store.close()
    }

    @Test(arguments: [
        (
            #"{"id": 900, "title": "fine"}"# + "\n" + #"{"id": 901, "colour": "red"}"#,
            "line 2: todo has no column 'colour'"
        ),
        (
            #"{"id": 900, "title": "fine"}"# + "\n\n" + #"{"id": "x", "title": "bad"}"#,
            #"line 3: 'id' needs an integer, which "x" is not"#
        ),
        (#"["not", "an", "object"]"#, "line 1: not a JSON object"),
        (
            #"{"id": 900, "title": "fine", "priority": 1, "done": false}"# + "\n"
                + #"{"id": 1, "title": "taken", "priority": 1, "done": false}"#,
            "line 2: "
        )
    ])
    func aBadLineImportsNothingAndIsNamed(_ content: String, _ message: String) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("app.sqlite")
        let store = try await SQLiteStore.open(path: path, schema: Fixtures.schema, options: .testing())
        try await store.write { tx in try Fixtures.insertSampleData(tx) }
        let count = try await store.count(FetchRequest<Row>(entity: "Todo"))
        let file = directory.path("bad.jsonl")
        try Data(content.utf8).write(to: URL(fileURLWithPath: file))
        let run = try await FetchKitBinary.run(["import", "--store", "sqlite://\(path)", "--entity", "todo", file])
        #expect(run.status != 0, "\(run.output)")
        #expect(run.output.contains(message) && run.output.contains("nothing was imported"), "\(run.output)")
        #expect(try await store.count(FetchRequest<Row>(entity: "Todo")) == count)
        await store.close()
    }
}
