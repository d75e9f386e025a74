import FetchKit
import Foundation

extension StoreConformance {
    /// A controller over a seeded store with a recorder as its delegate; every write through it is checked
    /// against the oracle.
    final class ControllerHarness: Sendable {
        let store: any PersistentStore
        let controller: ResultsController<Row>
        let recorder = ResultsRecorder<Row>()

        init(_ store: any PersistentStore, _ request: FetchRequest<Row>) async throws {
            self.store = store
            controller = ResultsController(store: store, request: request)
            controller.delegate = recorder
            try await controller.performFetch()
        }

        /// Writes, waits for the controller and checks the oracle: the content equals a fresh fetch, the
        /// callbacks came in contract order, at most one batch came, and it passes ``ListSimulator``.
        ///
        /// - Returns: The batch's changeset, or `nil` when the write changed nothing the request reads.
        @discardableResult
        func write(_ body: @escaping @Sendable (any WriteTransaction) throws -> Void) async throws -> Changeset? {
            let before = recorder.updates.count
            try await store.write(body)
            await controller.sync()
            try await ResultsOracle.checkMatchesFreshFetch(controller, in: store)
            try recorder.checkCallbackOrder()
            let updates = recorder.updates
            guard let update = updates.last, updates.count > before else { return nil }
            try expect(updates.count == before + 1, "one transaction gave \(updates.count - before) batches")
            try ResultsOracle.check(update, primaryKey: "id")
            return update.changeset
        }

        /// Like ``write(_:)``, for a write that must emit a batch.
        func batch(_ body: @escaping @Sendable (any WriteTransaction) throws -> Void) async throws -> Changeset {
            guard let changeset = try await write(body) else { throw ConformanceFailure("the write emitted no batch") }
            return changeset
        }

        /// The primary keys of `section`'s rows, in order.
        func ids(_ section: Int = 0) -> [Int64] {
            guard section < controller.sections.count else { return [] }
            return controller.sections[section].objects.map { $0["id", as: Int64.self] ?? -1 }
        }

        /// (incremental updates, full refreshes) so far.
        var paths: (incremental: Int, full: Int) {
            let statistics = controller.statistics
            return (statistics.incrementalUpdates, statistics.fullRefreshes)
        }

        /// Throws unless the controller took exactly these paths so far.
        func expectPaths(_ incremental: Int, _ full: Int, _ what: String) throws {
            let paths = self.paths
            try expect(
                paths == (incremental, full),
                "\(what): \(paths.incremental) incremental, \(paths.full) full, "
                    + "expected \(incremental) and \(full)")
        }
    }
}

/// Throws a ``ConformanceFailure`` saying `message` unless `condition` holds.
func expect(_ condition: Bool, _ message: @autoclosure () -> String) throws {
    try ConformanceFailure.require(condition, message())
}

extension ResultsStatus {
    /// Whether the controller follows the store: `.live`, or `.catchingUp` — which a PostgreSQL store's feed
    /// honestly reports while a shared server under a whole test suite delivers its notifications late.
    var isFollowing: Bool {
        switch self {
        case .live, .catchingUp: true
        default: false
        }
    }
}
