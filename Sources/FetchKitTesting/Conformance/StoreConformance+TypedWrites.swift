@_spi(Backend) import FetchKit
import FetchKitFixtures
import Foundation

/// The typed write checks: updates through a request with a closure over each record, deletes through a request
/// (with a limit too), and their row forms.
extension StoreConformance {
    /// The typed write checks.
    static var typedWriteChecks: [Check] {
        [
            Check(
                name: "update through a typed request writes what the closure changed; a key change rolls back",
                body: { try await $0.checkTypedUpdates(on: $1) }),
            Check(
                name: "delete through a typed request, by predicate and by limit in order",
                body: { try await $0.checkTypedDeletes(on: $1) })
        ]
    }

    func checkTypedUpdates(on store: any PersistentStore) async throws {
        let done = try FetchRequest<Todo>(predicate: #Predicate { $0.done })
        let before = try await store.fetch(FetchRequest(Todo.self, sortDescriptors: [.ascending("id")]))
        let (updated, again) = try await store.write { tx in
            (try tx.update(done) { $0.priority = 9 }, try tx.update(done) { $0.priority = 9 })
        }
        try ConformanceFailure.require(updated == 4 && again == 0, "updated \(updated), then \(again) unchanged")
        let after = try await store.fetch(FetchRequest(Todo.self, sortDescriptors: [.ascending("id")]))
        for (old, new) in zip(before, after) {
            var expected = old
            if old.done { expected.priority = 9 }
            try ConformanceFailure.require(new == expected, "\(new) after the update, expected \(expected)")
        }
        // A closure that changes a key fails the write whole, the rows it already wrote included.
        do {
            try await store.write { tx in
                try tx.update(done) { $0.priority = 1 }
                try tx.update(FetchRequest(Todo.self, predicate: try FetchPredicate(format: "id == 1"))) { $0.id = 99 }
            }
            throw ConformanceFailure("changing a primary key through an update did not fail")
        } catch let error as FetchKitError {
            try ConformanceFailure.require(error.code == .invalidValue, "changing a key threw \(error)")
        }
        let kept = try await store.fetch(FetchRequest(Todo.self, sortDescriptors: [.ascending("id")]))
        try ConformanceFailure.require(kept == after, "the failed write left changes: \(kept)")
        // The row form, with a limit: the first open todo by title.
        let renamed = try await store.write { tx in
            try tx.update(
                FetchRequest<Row>(
                    entity: "Todo", predicate: try FetchPredicate(format: "done == NO"),
                    sortDescriptors: [.ascending("title")], fetchLimit: 1),
                set: ["title": "first open"])
        }
        let first = try await store.fetch(
            FetchRequest(Todo.self, predicate: try FetchPredicate(format: "title == 'first open'")))
        try ConformanceFailure.require(renamed == 1 && first.count == 1, "renamed \(renamed): \(first)")
    }

    func checkTypedDeletes(on store: any PersistentStore) async throws {
        let atHome = FetchRequest(Todo.self, predicate: try FetchPredicate(format: "category.name == 'Home'"))
        let homeIDs = Set(try await store.fetch(atHome).compactMap(\.id))
        let byID = FetchRequest(Todo.self, sortDescriptors: [.ascending("id")])
        let expected = try await store.fetch(byID).compactMap(\.id).filter { !homeIDs.contains($0) }.dropFirst(3)
        let (home, oldest) = try await store.write { tx in
            (
                try tx.delete(atHome),
                try tx.delete(FetchRequest(Todo.self, sortDescriptors: [.ascending("id")], fetchLimit: 3))
            )
        }
        try ConformanceFailure.require(home == 2 && oldest == 3, "deleted \(home) at home, \(oldest) oldest")
        let left = try await store.fetch(byID).compactMap(\.id)
        try ConformanceFailure.require(left == Array(expected), "left \(left), expected \(Array(expected))")
        let none = try await store.write { tx in try tx.delete(FetchRequest(Todo.self, predicate: FetchPredicate.false))
        }
        try ConformanceFailure.require(none == 0, "deleted \(none) matching nothing")
    }
}
