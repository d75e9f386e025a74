@_spi(Backend) import FetchKit
import FetchKitFixtures
import Foundation

/// Text containing NUL (U+0000), which no backend stores: every path that could carry it to the database refuses
/// it the same way, before the database sees it (one of the value checks).
extension StoreConformance {
    /// Every write path, a raw-SQL binding and every way a predicate takes a value refuse text containing NUL with
    /// `invalidValue` naming the attribute (and entity); each refused write rolls back whole.
    func checkNulText(on store: any PersistentStore) async throws {
        let nul = "nul\u{0}byte"
        let before = try await store.fetch(FetchRequest(entity: "Todo", sortDescriptors: [.ascending("id")]))
        let writes: [(String, @Sendable (any WriteTransaction) throws -> Void)] = [
            ("insert of a record", { tx in try tx.insert(Fixtures.TodoRecord(title: nul)) }),
            ("insert of a row", { tx in _ = try tx.insert(["title": .text(nul)], into: "Todo") }),
            ("update of a row", { tx in _ = try tx.update("Todo", key: 1, set: ["notes": .text(nul)]) }),
            ("update of a record", { tx in try tx.update(Fixtures.TodoRecord(id: 1, title: nul)) }),
            (
                "update by predicate",
                { tx in _ = try tx.update("Todo", where: .key("id") == 1, set: ["title": .text(nul)]) }
            ),
            ("upsert of a row", { tx in try tx.upsert(["id": 1, "title": .text(nul)], into: "Todo") }),
            ("upsert of a record", { tx in try tx.upsert(Fixtures.TodoRecord(id: 99, title: nul)) }),
            (
                "bulk insert of records",
                { tx in _ = try tx.insert(contentsOf: [Fixtures.TodoRecord(title: "ok"), .init(title: nul)]) }
            ),
            (
                "bulk insert of rows",
                { tx in _ = try tx.insert(contentsOf: [["title": "ok"], ["title": .text(nul)]], into: "Todo") }
            ),
            (
                "delete by predicate",
                { tx in _ = try tx.delete("Todo", where: try FetchPredicate(format: "title == %@", nul)) }
            )
        ]
        for (path, write) in writes {
            do {
                try await store.write { tx in
                    // Written first, so that the refusal must roll the whole transaction back.
                    try tx.insert(Fixtures.TodoRecord(title: "written first"))
                    try write(tx)
                }
                throw ConformanceFailure("\(path): text containing NUL was written")
            } catch let error as FetchKitError {
                try expect(
                    error.code == .invalidValue && error.message.contains("Todo") && error.message.contains("NUL")
                        && (error.message.contains("title") || error.message.contains("notes")),
                    "\(path): \(error.code): \(error)")
            }
        }
        try await checkNulPredicates(nul, on: store)
        if store.dialect.runsSQL {
            do {
                try await store.write { tx in
                    try tx.insert(Fixtures.TodoRecord(title: "written first"))
                    _ = try tx.execute(
                        "UPDATE todo SET title = \(store.dialect.placeholder(1)) WHERE id = 1", [.text(nul)])
                }
                throw ConformanceFailure("raw SQL: text containing NUL was written")
            } catch let error as FetchKitError {
                try expect(error.code == .invalidValue, "raw SQL: \(error.code): \(error)")
            }
        }
        let after = try await store.fetch(FetchRequest(entity: "Todo", sortDescriptors: [.ascending("id")]))
        try expect(after == before, "refused writes changed the todos: \(after.count) rows")
    }

    /// A predicate comparing with text containing NUL, from a format string's argument, a builder and a
    /// `#Predicate`, in a fetch and a count: each `invalidValue`, naming the key path.
    private func checkNulPredicates(_ nul: String, on store: any PersistentStore) async throws {
        let predicates: [(String, FetchPredicate)] = [
            ("a format argument", try FetchPredicate(format: "title == %@", nul)),
            ("a format argument under BEGINSWITH", try FetchPredicate(format: "notes BEGINSWITH %@", nul)),
            ("a format argument in an IN list", try FetchPredicate(format: "title IN %@", ["a", nul])),
            ("a built comparison", .key("title") == .text(nul)),
            ("a #Predicate", try FetchPredicate(#Predicate<Fixtures.TodoRecord> { $0.title == nul }))
        ]
        for (path, predicate) in predicates {
            let request = FetchRequest(entity: "Todo", predicate: predicate, sortDescriptors: [.ascending("id")])
            for (what, read) in [
                ("fetch", { _ = try await store.fetch(request) }),
                ("count", { _ = try await store.count(request) })
            ] as [(String, () async throws -> Void)] {
                do {
                    try await read()
                    throw ConformanceFailure("\(path): a \(what) compared with text containing NUL")
                } catch let error as FetchKitError {
                    try expect(
                        error.code == .invalidValue && error.keyPath != nil && error.entity == "Todo",
                        "\(path), \(what): \(error.code): \(error)")
                }
            }
        }
    }
}
