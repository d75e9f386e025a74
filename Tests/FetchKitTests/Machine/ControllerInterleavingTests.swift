import FetchKit
import FetchKitBackendKit
import FetchKitFixtures
import FetchKitInMemory
import FetchKitTesting
import Synchronization
import Testing

/// The real controller — its machine and the interpreter that performs its actions — over a store whose reads the
/// test holds and whose feed it interrupts, resumes and closes, in every order of a few events: writers' commits
/// (one of several rows), the feed going blind and coming back, a user's drop on the delegate's actor, reads
/// held mid-batch or failing (the controller then retries), and the store closing.
///
/// In every run: no status reads `.live` while the feed is blind; each batch applies to what the delegate's table
/// showed, and inside its callbacks the controller's `sections`, `object(at:)` and `fetchedObjects` are the
/// batch's results with the user's drop; a run that closes the store ends with every controller `.failed(closed)`,
/// its updates sequence ended and `sync()` returning; any other ends `.live`, equal to a fresh fetch.
@Suite("Controller: the real machine and interpreter in every order")
struct ControllerInterleavingTests {
    typealias Table = UserMoveDataSourceTests.Table

    enum Step: Equatable, CustomStringConvertible {
        case write(Int)
        case interrupt
        case resume
        case drop
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

    /// Every order, each with `open` and `close` around a part of it chosen by a seeded random.
    private static func orders(within open: Step, _ close: Step, seed: UInt64) -> [[Step]] {
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
        var random = SeededRandom(seed: 7)
        for (index, order) in Self.orders.enumerated() where index % 3 == 0 {
            var steps = Array(order.prefix(Int(random.next() % UInt64(order.count + 1))))
            if random.next() % 2 == 0 { steps.insert(.holdReads, at: Int(random.next() % UInt64(steps.count + 1))) }
            steps.append(.close)
            try await run(steps)
        }
    }

    /// Runs `steps` on a new store and controller without waiting between them, then checks the run's end.
    private func run(_ steps: [Step]) async throws {
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
        let reader = Task { () -> (any Error)? in
            do {
                for try await _ in controller.updates() {}
                return nil
            } catch {
                return error
            }
        }
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
        } else {
            if blind {
                base.changeFeed.publishResync()
                base.changeFeed.publishDelivery(.streaming)
            }
            for drop in drops { try await drop.value }
            await controller.sync()
            #expect(controller.status == .live, "\(steps): ends \(controller.status)")
            try await ResultsOracle.checkMatchesFreshFetch(controller, in: store)
            reader.cancel()
        }
        try await expectTableConsistent(table, controller, steps, closed: closed)
        withExtendedLifetime(adapter) {}
    }

    private func expectClosed(
        _ controller: ResultsController<Row>, reader: Task<(any Error)?, Never>, _ steps: [Step]
    ) async throws {
        // `sync()` returns; the status is terminal; the updates sequence ends by throwing `closed`.
        await controller.sync()
        #expect(
            controller.status == .failed(.closed), "\(steps): a closed store's controller reads \(controller.status)")
        let ended = await reader.value
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
