import FetchKit
import FetchKitBackendKit
import FetchKitFixtures
import FetchKitInMemory
import FetchKitTesting
import Synchronization
import Testing

/// The real controller — its machine and the interpreter that performs its actions — over a store whose reads the
/// test holds and whose feed it interrupts, resumes and closes, in every order of a few events: writers' commits
/// (one of several rows), the feed going blind and coming back, a user's drop on the delegate's actor, a drop by
/// the UI of an update sequence's reader on the reader's own actor (``DraggingReader``), reads held mid-batch or
/// failing (the controller then retries), and the store closing.
///
/// In every run: no status reads `.live` while the feed is blind; each batch applies to what the delegate's table
/// showed, and inside its callbacks the controller's `sections`, `object(at:)` and `fetchedObjects` are the
/// batch's results with the user's drop; each element of the updates sequence starts from what its reader shows
/// and applies to it, and none moves, inserts or deletes the row the reader dropped while its move waits to be
/// written; a run that closes the store ends with every controller `.failed(closed)`, its updates sequence ended
/// by throwing `closed` and `sync()` returning; any other ends `.live`, equal to a fresh fetch, the delegate's
/// table and the reader showing the results.
@Suite("Controller: the real machine and interpreter in every order")
struct ControllerInterleavingTests {
    typealias Table = UserMoveDataSourceTests.Table

    enum Step: Equatable, CustomStringConvertible {
        case write(Int)
        case interrupt
        case resume
        case drop
        case readerDrop
        case holdReads
        case releaseReads
        case failReads
        case healReads
        case close

        var description: String {
            switch self {
            case .write(let index): "write\(index)"
            case .interrupt: "interrupt"
            case .resume: "resume"
            case .drop: "drop"
            case .readerDrop: "readerDrop"
            case .holdReads: "hold"
            case .releaseReads: "release"
            case .failReads: "fail"
            case .healReads: "heal"
            case .close: "close"
            }
        }
    }

    private static let blind = FetchKitError.connectionLost("the feed reconnects")

    /// The writers' transactions: a row into the section the user drags from, a rename and an insert in one
    /// transaction, a delete.
    private static let writes: [@Sendable (any WriteTransaction) throws -> Void] = [
        { tx in
            _ = try tx.insert(
                ["title": "another", "priority": 1, "done": false, "categoryID": 2, "ordering": 50.0], into: "Todo")
        },
        { tx in
            try tx.update("Todo", key: 1, set: ["title": "Rewrite report"])
            _ = try tx.insert(
                ["title": "stamps", "priority": 2, "done": false, "categoryID": 3, "ordering": 9.0], into: "Todo")
        },
        { tx in try tx.delete("Todo", key: 9) }
    ]

    private static let request = FetchRequest(
        entity: "Todo", sortDescriptors: [.ascending("category.name"), .ascending("ordering")],
        sectionNameKeyPath: "category.name")

    /// Every order of three commits, a drop, and the feed going blind then coming back.
    static var orders: [[Step]] {
        permutations([.write(0), .interrupt, .write(1), .resume, .drop, .write(2)]).filter {
            $0.firstIndex(of: .interrupt)! < $0.firstIndex(of: .resume)!
        }
    }

    @Test func everyOrderOfCommitsADropAndABlindFeed() async throws {
        for order in Self.orders { try await run(order) }
    }

    @Test func everyOrderWithReadsHeldOverPartOfIt() async throws {
        for steps in Self.orders(within: .holdReads, .releaseReads, seed: 43) { try await run(steps) }
    }

    @Test func everyOrderWithReadsFailingOverPartOfIt() async throws {
        for steps in Self.orders(within: .failReads, .healReads, seed: 11) { try await run(steps) }
    }

    /// Every order of three commits, the delegate's drop and the reader's drop.
    static var dropOrders: [[Step]] { permutations([.write(0), .write(1), .readerDrop, .write(2), .drop]) }

    /// The reader's UI drags a row while writers commit, alone or while the delegate's user drags another: each
    /// of them sees its own drop stay where it put it, and the other's arrive. The reader falls behind by more
    /// than one batch at times, so that its batches collapse.
    @Test func everyOrderOfCommitsAndAReadersDrop() async throws {
        let alone = Self.permutations([.write(0), .write(1), .readerDrop, .write(2)])
        for order in alone + Self.dropOrders { try await run(order, bufferingLimit: 1) }
    }

    @Test func everyOrderOfTwoUsersDropsWithReadsHeldOverPartOfIt() async throws {
        for steps in Self.orders(of: Self.dropOrders, within: .holdReads, .releaseReads, seed: 5) {
            try await run(steps, bufferingLimit: 1)
        }
    }

    @Test func everyOrderOfTwoUsersDropsWithReadsFailingOverPartOfIt() async throws {
        for steps in Self.orders(of: Self.dropOrders, within: .failReads, .healReads, seed: 23) {
            try await run(steps, bufferingLimit: 2)
        }
    }

    /// Every order of commits, the delegate's drop and the feed going blind then coming back, with the reader's
    /// drop at each place in turn.
    @Test func everyOrderWithTheReadersDropAnywhere() async throws {
        for (index, order) in Self.orders.enumerated() {
            var steps = order
            steps.insert(.readerDrop, at: index % (order.count + 1))
            try await run(steps, bufferingLimit: 1 + index % 2)
        }
    }

    /// Every order in `orders`, each with `open` and `close` around a part of it chosen by a seeded random.
    private static func orders(
        of orders: [[Step]] = ControllerInterleavingTests.orders, within open: Step, _ close: Step, seed: UInt64
    ) -> [[Step]] {
        var random = SeededRandom(seed: seed)
        return orders.map { order in
            let start = Int(random.next() % UInt64(order.count))
            let end = start + 1 + Int(random.next() % UInt64(order.count - start))
            var steps = order
            steps.insert(close, at: end)
            steps.insert(open, at: start)
            return steps
        }
    }

    @Test func theStoreClosingAtAnyPoint() async throws {
        for steps in Self.closing(Self.orders, every: 3, seed: 7) { try await run(steps) }
    }

    /// The store closing at any point of the two users' drops, with reads held or not: the reader's sequence
    /// ends by throwing `closed`.
    @Test func theStoreClosingAtAnyPointOfTwoUsersDrops() async throws {
        for steps in Self.closing(Self.dropOrders, every: 2, seed: 31) { try await run(steps, bufferingLimit: 1) }
    }

    /// Every `stride`-th order of `orders`, cut at a point chosen by a seeded random (half of them with reads held
    /// from a random point on), then the store closing.
    private static func closing(_ orders: [[Step]], every stride: Int, seed: UInt64) -> [[Step]] {
        var random = SeededRandom(seed: seed)
        return orders.enumerated().compactMap { index, order in
            guard index % stride == 0 else { return nil }
            var steps = Array(order.prefix(Int(random.next() % UInt64(order.count + 1))))
            if random.next() % 2 == 0 { steps.insert(.holdReads, at: Int(random.next() % UInt64(steps.count + 1))) }
            return steps + [.close]
        }
    }

    /// Runs `steps` on a new store and controller, with a reader of its updates (more than `bufferingLimit`
    /// batches behind, they collapse), without waiting between them; then checks the run's end.
    private func run(_ steps: [Step], bufferingLimit: Int = 64) async throws {
        let base = InMemoryStore(schema: Fixtures.schema)
        try await base.write { tx in try Fixtures.insertSampleData(tx) }
        let gated = GatedStore(base)
        let store = gated.store
        let controller = ResultsController(store: store, request: Self.request)
        let table = Table()
        let adapter = UserMoveDataSourceTests.Adapter(table: table)
        controller.setDelegate(adapter, isolation: table)
        try await controller.performFetch()
        await table.reset(controller.snapshot)
        let reader = DraggingReader(controller, bufferingLimit: bufferingLimit)
        await reader.start()
        var (blind, closed) = (false, false)
        var drops: [Task<Void, any Error>] = []
        for step in steps {
            switch step {
            case .write(let index): try await store.write(Self.writes[index])
            case .interrupt:
                base.changeFeed.publishDelivery(.interrupted(Self.blind))
                blind = true
            case .resume:
                base.changeFeed.publishResync()
                base.changeFeed.publishDelivery(.streaming)
                blind = false
            // Home (2) to the top of Errands (1): the writes keep both sections.
            case .drop: drops.append(await table.drop(from: 2, to: 1, controller: controller))
            // Todo 7 (Work) just above todo 6 (Home, below the row the delegate's user drags): a row and a place
            // the writes and the other user leave alone.
            case .readerDrop: drops.append(await reader.drop(key: 7, destination: .before(6)))
            case .holdReads: gated.holdReads()
            case .releaseReads: gated.releaseReads()
            case .failReads: gated.failReads(true)
            case .healReads: gated.failReads(false)
            case .close:
                await store.close()
                closed = true
            }
            if blind && !closed {
                let status = controller.status
                #expect(status.isBlind, "\(steps): after \(step) the status reads \(status) while the feed is blind")
            }
        }
        gated.releaseReads()
        gated.failReads(false)
        if closed {
            try await expectClosed(controller, reader: reader, steps)
            // Every drop ends: written before the store closed, or failing with `closed`.
            for drop in drops {
                if case .failure(let error) = await drop.result {
                    #expect((error as? FetchKitError)?.code == .closed, "\(steps): a drop failed with \(error)")
                }
            }
        } else {
            if blind {
                base.changeFeed.publishResync()
                base.changeFeed.publishDelivery(.streaming)
            }
            for drop in drops { try await drop.value }
            await controller.sync()
            #expect(controller.status == .live, "\(steps): ends \(controller.status)")
            try await ResultsOracle.checkMatchesFreshFetch(controller, in: store)
        }
        try await expectTableConsistent(table, controller, steps, closed: closed)
        if !closed { try await expectReaderInStep(reader, controller, store, steps) }
        await reader.stop()
        let (failures, bounces) = await (reader.failures, reader.bounces)
        #expect(failures.isEmpty, "\(steps): elements that do not apply to what the reader shows: \(failures)")
        #expect(bounces.isEmpty, "\(steps): the reader's dragged row bounced: \(bounces)")
        withExtendedLifetime(adapter) {}
    }

    /// Once the reader has read every element, it shows the controller's results.
    ///
    /// A last commit marks the end: elements come in commit order, so once the reader shows the row it inserts,
    /// it has read every element before (a move's own batches name no transaction to wait for).
    private func expectReaderInStep(
        _ reader: DraggingReader, _ controller: ResultsController<Row>, _ store: any PersistentStore, _ steps: [Step]
    ) async throws {
        let last = try await store.write { tx in
            try tx.insert(
                ["title": "last", "priority": 0, "done": false, "categoryID": 1, "ordering": 100.0], into: "Todo")
        }
        await controller.sync()
        let deadline = ContinuousClock.now + .seconds(10)
        while await !reader.shows(last), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(1))
        }
        let (shown, through) = await (reader.shown, reader.throughTransaction)
        let (expected, applied) = (DraggingReader.shown(controller.snapshot), controller.appliedTransactionID)
        #expect(
            DraggingReader.same(shown, expected),
            "\(steps): the reader shows \(shown), the results are \(expected) (waited for row \(last))")
        #expect(
            through >= applied,
            "\(steps): the reader's last batch named transaction \(through), the results are at \(applied)")
    }

    private func expectClosed(
        _ controller: ResultsController<Row>, reader: DraggingReader, _ steps: [Step]
    ) async throws {
        // `sync()` returns; the status is terminal; the updates sequence ends by throwing `closed`.
        await controller.sync()
        #expect(
            controller.status == .failed(.closed), "\(steps): a closed store's controller reads \(controller.status)")
        let ended = await reader.ending()
        #expect(
            (ended as? FetchKitError)?.code == .closed,
            "\(steps): the updates sequence ended with \(String(describing: ended))")
    }

    /// Each batch applied to what the table showed; inside its callbacks the data source was the batch's results.
    private func expectTableConsistent(
        _ table: Table, _ controller: ResultsController<Row>, _ steps: [Step], closed: Bool
    ) async throws {
        let (checked, failures, shown) = await (table.checked, table.failures, table.shown)
        #expect(failures.isEmpty, "\(steps): batches that do not apply to the table: \(failures)")
        for (reads, after) in checked {
            for read in reads {
                #expect(read.sections == after, "\(steps): \(read.callback) read \(read.sections), the batch \(after)")
                #expect(read.fetched == after.flatMap { $0 }, "\(steps): \(read.callback): fetchedObjects")
                #expect(read.byPath == after, "\(steps): \(read.callback): object(at:)")
            }
        }
        // A drop the closed store never wrote stays in the table alone.
        if !closed { #expect(shown == Table.keys(controller.snapshot), "\(steps): the table ends \(shown)") }
    }

    private static func permutations(_ steps: [Step]) -> [[Step]] {
        guard steps.count > 1 else { return [steps] }
        return steps.indices.flatMap { index -> [[Step]] in
            var rest = steps
            let first = rest.remove(at: index)
            return permutations(rest).map { [first] + $0 }
        }
    }
}

extension ResultsStatus {
    /// Whether the status admits the controller cannot follow the store: anything but `.live` and `.catchingUp`.
    fileprivate var isBlind: Bool {
        switch self {
        case .live, .catchingUp: false
        default: true
        }
    }
}
