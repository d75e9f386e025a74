import FetchKit
import Foundation

extension StoreConformance {
    /// Holds an object weakly, to see it go.
    private final class WeakReference: @unchecked Sendable {
        weak var object: AnyObject?
        init(_ object: AnyObject) { self.object = object }
    }

    /// A controller's tasks end with it: controllers of every kind — with a delegate, with an update reader,
    /// sharing one request, a multi-controller, a composite and its part — released while their writes'
    /// batches are still on their way, all go away, every task they started ends, their update sequences end
    /// normally, and the store's change router goes with them.
    func checkTasksEndWithControllers(on store: any PersistentStore) async throws {
        let request = FetchRequest(entity: "Todo", sortDescriptors: [.ascending("id")])
        var censuses: [(String, TaskCensus)] = []
        var references: [(String, WeakReference)] = []
        var readers: [Task<Int, any Error>] = []
        let recorder = ResultsRecorder<Row>()
        do {
            let plain = ResultsController(store: store, request: request)
            plain.delegate = recorder
            try await plain.performFetch()
            let updates = plain.updates()
            readers.append(Task { try await updates.reduce(0) { count, _ in count + 1 } })
            let shared = FetchRequest(
                entity: "Todo", predicate: try FetchPredicate(format: "done == NO"),
                sortDescriptors: [.ascending("id")])
            let leader = ResultsController(store: store, request: shared)
            let follower = ResultsController(store: store, request: shared)
            try await leader.performFetch()
            try await follower.performFetch()
            let followerUpdates = follower.updates()
            readers.append(Task { try await followerUpdates.reduce(0) { count, _ in count + 1 } })
            let multi = try MultiResultsController(store: store, requests: Self.multiRequests, initial: "open")
            try await multi.performFetch()
            let part = ResultsController(store: store, request: request)
            let composite = CompositeResultsController()
            _ = try composite.add(part, limit: 3)
            try await composite.performFetch()
            censuses = [
                ("controller", plain.census), ("leader", leader.census), ("follower", follower.census),
                ("multi-controller", multi.census), ("composite part", part.census),
                ("composite", composite.census)
            ]
            references = [
                ("controller", WeakReference(plain)), ("leader", WeakReference(leader)),
                ("follower", WeakReference(follower)), ("multi-controller", WeakReference(multi)),
                ("composite part", WeakReference(part)), ("composite", WeakReference(composite))
            ]
            // Writes whose batches are still on their way when the controllers are released.
            for round in 0..<10 {
                _ = try await store.write { tx in
                    try tx.insert(
                        Row([
                            ("title", .text("lifetime \(round)")), ("priority", .integer(Int64(round))),
                            ("ordering", .integer(Int64(round)))
                        ]), into: "Todo")
                }
            }
        }
        // Every controller is released; each must go, with its tasks, within a bound no healthy run approaches.
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline {
            let alive = references.filter { $0.1.object != nil }.map(\.0)
            let running = censuses.filter { $0.1.count > 0 }.map(\.0)
            if alive.isEmpty && running.isEmpty && store.liveRouterID == nil { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        let alive = references.filter { $0.1.object != nil }.map(\.0)
        try expect(alive.isEmpty, "released controllers still alive: \(alive)")
        let running = censuses.filter { $0.1.count > 0 }.map { "\($0.0) (\($0.1.count))" }
        try expect(running.isEmpty, "tasks still running after their controllers went: \(running)")
        try expect(store.liveRouterID == nil, "the store's change router outlived its controllers")
        for reader in readers {
            let received = try await reader.value
            try expect(received >= 1, "an update sequence ended before its first element")
        }
        try recorder.checkCallbackOrder()
    }
}
