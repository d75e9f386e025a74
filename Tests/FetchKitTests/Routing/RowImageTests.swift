@_spi(Backend) import FetchKit
import FetchKitInMemory
import FetchKitTesting
import Logging
import Synchronization
import Testing

@testable import FetchKit

/// A change that carries what its transaction left of each row (``TableChange/images``, as a store reading its log
/// has them): the router hands those rows on instead of re-reading them, re-reads only the keys without one, and
/// folding keeps an image only while no later change names its key without one.
@Suite("Row images")
struct RowImageTests {
    static let layout = RowLayout(names: ["id", "grp", "v"])

    static func row(_ id: Int64, grp: Int64, v: Int64) -> Row {
        Row(layout: layout, values: [.integer(id), .integer(grp), .integer(v)])
    }

    /// A route target that keeps what it was handed.
    final class Recorder: RouteTarget {
        let received = Mutex<[RoutedChange]>([])

        func receive(_ change: RoutedChange) { received.withLock { $0.append(change) } }

        func observeLag(unroutedSince: ContinuousClock.Instant?, at now: ContinuousClock.Instant) -> (
            lag: Duration, isBehind: Bool
        ) { (.zero, false) }
        func feedEnded() {}
        func feedInterrupted(_ error: FetchKitError, id: UInt64) {}
        func feedResumed(id: UInt64) {}
    }

    @Test func imagesStandInForTheReReadAndOnlyTheOtherKeysAreRead() async throws {
        let store = InMemoryStore(schema: try Schema([HotTable.entity]))
        try await store.write { tx in
            for id in 1...3 as ClosedRange<Int64> { try tx.insert(Self.row(id, grp: 1, v: 0), into: "Hot") }
        }
        let router = ChangeRouter(store: store, logger: Logger(label: "fetchkit.test"))
        let recorder = Recorder()
        let id = router.reserveRoute()
        router.attach(recorder, to: id)
        _ = router.beginRefresh(id)
        let plan = try HotTable.plan(FetchRequest(entity: "Hot", predicate: .key("grp") == Int64(1)))
        router.endRefresh(
            id, replacing: .init(plan: plan, oldKeys: [], newKeys: [.integer(1), .integer(2), .integer(3)]))
        // The database says v = 0 for every row; the images say otherwise for rows 1 and 2 (the transaction's
        // state), and that row 3 is gone. Row 4 has no image: it is read (and is not there).
        let change = StoreChange(
            transactionID: 9,
            tables: [
                "hot": TableChange(
                    inserted: [.integer(4)], updated: [.integer(1), .integer(2)], deleted: [.integer(3)],
                    images: [
                        .integer(1): .row(Self.row(1, grp: 1, v: 10)), .integer(2): .row(Self.row(2, grp: 1, v: 20)),
                        .integer(3): .absent
                    ])
            ])
        await router.route(change)
        let routed = try #require(recorder.received.withLock { $0.first })
        let rows = try #require(routed.rows["hot"])
        // Narrowed to the keys the route holds: row 4 neither exists nor is held.
        #expect(rows.keys == [.integer(1), .integer(2), .integer(3)])
        #expect(rows.rows == [.integer(1): Self.row(1, grp: 1, v: 10), .integer(2): Self.row(2, grp: 1, v: 20)])
        // Without images, the same change re-reads every key: the database's rows.
        var bare = change
        bare.tables["hot"]?.images = [:]
        await router.route(StoreChange(transactionID: 10, tables: bare.tables))
        let reread = try #require(recorder.received.withLock { $0.last }?.rows["hot"])
        #expect(reread.rows[.integer(1)]?["v"] == .integer(0))
        #expect(reread.rows[.integer(3)]?["v"] == .integer(0))
    }

    @Test func foldingKeepsTheLaterImageAndDropsOnesALaterChangeMakesStale() {
        var earlier = TableChange(
            inserted: [.integer(1)], updated: [.integer(2)],
            images: [.integer(1): .row(Self.row(1, grp: 1, v: 1)), .integer(2): .row(Self.row(2, grp: 1, v: 2))])
        // Row 1 again, with its new image; row 2 again, without one (re-read it); row 3 deleted.
        let later = TableChange(
            updated: [.integer(1), .integer(2)], deleted: [.integer(3)],
            images: [.integer(1): .row(Self.row(1, grp: 1, v: 5)), .integer(3): .absent])
        earlier.absorb(later, keyLimit: 100)
        #expect(earlier.images == [.integer(1): .row(Self.row(1, grp: 1, v: 5)), .integer(3): .absent])
        earlier.absorb(TableChange(isWholeTable: true), keyLimit: 100)
        #expect(earlier.images.isEmpty)
        // Recording an operation drops the key's image: a new one follows, or the key is re-read.
        var change = TableChange(inserted: [.integer(7)], images: [.integer(7): .absent])
        change.record(.update, key: .integer(7))
        #expect(change.images.isEmpty)
    }
}
