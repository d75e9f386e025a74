import FetchKit
import Foundation

/// A schema changed under a live controller: a store opened with ``version1`` applies the plan to
/// ``version2`` (a new attribute with a default, a new optional indexed one) while a controller follows its
/// tasks, and the controller goes on — every batch after the plan passes ``ListSimulator`` and leaves it equal to
/// a fresh fetch, through writes that set the new columns.
public enum SchemaEvolutionScenario {
    /// Tasks with a title and a done flag.
    public static let version1 = try! Schema([
        Entity("Task", table: "task", attributes: [Attribute("title", .text), Attribute("done", .bool, default: false)])
    ])

    /// ``version1`` with a priority (default 0) and an optional, indexed due date.
    public static let version2 = try! Schema([
        Entity(
            "Task", table: "task",
            attributes: [
                Attribute("title", .text), Attribute("done", .bool, default: false),
                Attribute("priority", .integer, default: 0), Attribute("due", .date, optional: true, indexed: true)
            ])
    ])

    /// The tasks by title, as the controller of ``run(on:)`` reads them.
    public static let request = FetchRequest(entity: "Task", sortDescriptors: [.ascending("title")])

    /// Runs the scenario on `store`, opened with ``version1`` on a database without the table's new columns;
    /// returns the plan it applied.
    ///
    /// - Throws: ``OracleFailure`` when a batch or the controller's content is wrong; the store's errors.
    public static func run<Store: PersistentStore & SchemaPlanning>(on store: Store) async throws -> SchemaPlan {
        try await store.write { tx in
            for title in ["b", "d", "f"] { try tx.insert(["title": .text(title)], into: "Task") }
        }
        let controller = ResultsController(store: store, request: request)
        let recorder = ResultsRecorder<Row>()
        controller.delegate = recorder
        try await controller.performFetch()

        let plan = try await version2.plan(against: store)
        try await store.apply(plan)

        let p = store.dialect.placeholder
        let update = "UPDATE task SET priority = \(p(1)), title = \(p(2)) WHERE title = \(p(3))"
        let insert = "INSERT INTO task (title, done, priority, due) VALUES (\(p(1)), \(p(2)), \(p(3)), \(p(4)))"
        let due = Value.date(Date(timeIntervalSince1970: 1_800_000_000))
        let writes: [@Sendable (any WriteTransaction) throws -> Void] = [
            // The new columns set by SQL, a row moved.
            { tx in _ = try tx.execute(update, [5, "a", "d"]) },
            // A row inserted with the new columns.
            { tx in _ = try tx.execute(insert, ["c", false, 9, due]) },
            // A row inserted through the old schema: the new column takes its default.
            { tx in _ = try tx.insert(["title": "e"], into: "Task") },
            // An update and a delete through the old schema.
            { tx in
                _ = try tx.update("Task", where: try FetchPredicate(format: "title == 'b'"), set: ["done": true])
                _ = try tx.delete("Task", where: try FetchPredicate(format: "title == 'f'"))
            }
        ]
        for write in writes {
            try await store.write(write)
            await controller.sync()
            try await ResultsOracle.checkMatchesFreshFetch(controller, in: store)
        }
        for update in recorder.updates { try ResultsOracle.check(update, primaryKey: "id") }
        let titles = controller.fetchedObjects.compactMap { $0["title", as: String.self] }
        guard titles == ["a", "b", "c", "e"], recorder.updates.count >= writes.count else {
            throw OracleFailure(
                "after the plan, the controller holds \(titles) after \(recorder.updates.count) batches")
        }
        return plan
    }

    /// The tasks' titles and priorities, by title, read through a store opened with ``version2``.
    public static func priorities(in store: some PersistentStore) async throws -> [String: Int64] {
        let rows = try await store.fetch(FetchRequest(entity: "Task", sortDescriptors: [.ascending("title")]))
        var priorities: [String: Int64] = [:]
        for row in rows {
            if let title = row["title", as: String.self] { priorities[title] = row["priority", as: Int64.self] }
        }
        return priorities
    }
}
