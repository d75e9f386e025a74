import FetchKitInMemory
import FetchKitTesting
import Logging
import Synchronization
import Testing

@testable import FetchKit

/// The router hands a change to its routes in route order, the same for every change: under load each
/// controller's work then queues at the same place in the pool, once per round of the others.
@Suite("Route order")
struct RouteOrderTests {
    /// The routes handed a change, in the order they were.
    final class Log: Sendable {
        let ids = Mutex<[Int]>([])
    }

    /// A route target that notes, in a log shared by all, when it was handed a change.
    final class Recorder: RouteTarget {
        let id: Int
        let log: Log

        init(id: Int, log: Log) {
            self.id = id
            self.log = log
        }

        func receive(_ change: RoutedChange) {
            log.ids.withLock { $0.append(id) }
        }

        func observeLag(unroutedSince: ContinuousClock.Instant?, at now: ContinuousClock.Instant) -> (
            lag: Duration, isBehind: Bool
        ) { (.zero, false) }
        func feedEnded() {}
        func feedInterrupted(_ error: FetchKitError, id: UInt64) {}
        func feedResumed(id: UInt64) {}
    }

    @Test func everyChangeReachesTheRoutesInRouteOrder() async throws {
        let store = InMemoryStore(schema: try Schema([HotTable.entity]))
        let router = ChangeRouter(store: store, logger: Logger(label: "fetchkit.test"))
        let logs = (0..<3).map { _ in Log() }
        // The targets stay alive with the recorders; the router holds them weakly or strongly, either way.
        var recorders: [[Recorder]] = []
        var ids: [Int] = []
        for _ in 0..<64 { ids.append(router.reserveRoute()) }
        for log in logs {
            let round = ids.map { Recorder(id: $0, log: log) }
            for recorder in round { router.attach(recorder, to: recorder.id) }
            recorders.append(round)
            // A resync reaches every route.
            await router.route(.resync(transactionID: UInt64(recorders.count)))
        }
        for log in logs { #expect(log.ids.withLock { $0 } == ids.sorted()) }
        #expect(recorders.count == 3)
    }
}
