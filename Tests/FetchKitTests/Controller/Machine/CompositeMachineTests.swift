import FetchKitTesting
import Testing

@testable import FetchKit

/// The composite controller's grouping by transaction, merge into global index paths and failure path as a
/// value: events in, actions out, no database. Every batch goes through ``ListSimulator`` (``CompositeWorld``).
@Suite("Composite machine")
struct CompositeMachineTests {
    /// A menu of two rows (section 0), part 1 with sections a and b, part 2 with sections x and y.
    private func world(delegate: Bool = true) -> CompositeWorld {
        CompositeWorld(
            menu: ["Settings", "Help"],
            parts: [
                DiffSnapshot(keys: [("a", [1, 2]), ("b", [3])]), DiffSnapshot(keys: [("x", [10]), ("y", [11, 12])])
            ],
            delegate: delegate)
    }

    @Test func changesOfTwoPartsInOneTransactionArriveAsOneBatchInGlobalIndexPaths() throws {
        var world = world()
        // Part 1 loses row 1 and gains section c; part 2 loses section x and gains row 13.
        let first = try world.change(1, to: DiffSnapshot(keys: [("a", [2]), ("b", [3]), ("c", [4])]), in: 7)
        let second = try world.change(2, to: DiffSnapshot(keys: [("y", [11, 12, 13])]), in: 7)
        #expect(first.map(\.name) == ["signalEmission"] && second.map(\.name) == ["signalEmission"])
        let batches = try world.emit(rounds: [7])
        let batch = try #require(batches.first)
        #expect(batches.count == 1 && batch.transactionID == 7)
        let changeset = batch.changeset
        // Part 1 starts after the menu in both index spaces; part 2 after part 1's two old and three new sections.
        #expect(changeset.rowDeletes == [RowPath(section: 1, row: 0)])
        #expect(changeset.sectionInserts == [3])
        #expect(changeset.sectionDeletes == [3])
        #expect(changeset.rowInserts == [RowPath(section: 4, row: 2)])
        #expect(changeset.sectionCountsBefore == [2, 2, 1, 1, 2])
        #expect(changeset.sectionCountsAfter == [2, 1, 1, 1, 3])
        #expect(batch.sectionNamesAfter == ["Menu", "a", "b", "c", "y"])
        #expect(world.machine.pending.isEmpty && world.next == nil)
    }

    @Test func aTransactionNotYetCompleteWaitsForTheNextRound() throws {
        var world = world()
        try world.change(1, to: DiffSnapshot(keys: [("a", [1, 2, 4]), ("b", [3])]), in: 5)
        try world.change(1, to: DiffSnapshot(keys: [("a", [1, 2, 4]), ("b", [3, 5])]), in: 6)
        // Every part has applied transaction 5 only: part 2's change of 6 may still be on its way.
        try world.handle(.roundSynced(through: 5))
        while world.next == .batch { try world.handle(.batchDelivered) }
        #expect(world.batches.map(\.transactionID) == [5])
        #expect(world.next == .round && !world.machine.stalled)
        try world.change(2, to: DiffSnapshot(keys: [("x", [10, 14]), ("y", [11, 12])]), in: 6)
        try world.emit(rounds: [6])
        // Transaction 6 arrives as one batch of both parts.
        #expect(world.batches.map(\.transactionID) == [5, 6])
        #expect(world.batches.last?.changeset.rowInserts == [RowPath(section: 2, row: 1), RowPath(section: 3, row: 1)])
    }

    @Test func aStalledRoundReleasesThePendingTransactionsInOrder() throws {
        var world = world()
        try world.change(2, to: DiffSnapshot(keys: [("x", [10]), ("y", [12])]), in: 9)
        try world.change(1, to: DiffSnapshot(keys: [("b", [3])]), in: 8)
        // Parts on different stores: the transaction every part applied is before both.
        try world.handle(.roundSynced(through: 7))
        #expect(world.batches.isEmpty && world.next == .round && world.machine.stalled)
        try world.handle(.roundSynced(through: 7))
        while world.next == .batch { try world.handle(.batchDelivered) }
        #expect(world.batches.map(\.transactionID) == [8, 9])
        #expect(world.next == nil && !world.machine.stalled && world.machine.pending.isEmpty)
    }

    @Test func aPartsChangesGoOutInTheOrderItReportedThem() throws {
        var world = world()
        // Part 2 refetched (no transaction) between the two parts' changes of transaction 5.
        try world.change(1, to: DiffSnapshot(keys: [("a", [1, 2, 4]), ("b", [3])]), in: 5)
        try world.change(2, to: DiffSnapshot(keys: [("y", [11, 12])]), in: nil)
        try world.change(2, to: DiffSnapshot(keys: [("y", [11, 12, 13])]), in: 5)
        #expect(try world.emit(rounds: [5]).map(\.transactionID) == [5, nil, 5])
        // Part 1 applied transaction 6 before part 2 applied 5; then part 1 refetched.
        try world.change(1, to: DiffSnapshot(keys: [("a", [1, 2, 4])]), in: 6)
        try world.change(2, to: DiffSnapshot(keys: [("y", [11, 13])]), in: 5)
        try world.change(2, to: DiffSnapshot(keys: [("y", [13])]), in: 6)
        try world.change(1, to: DiffSnapshot(keys: [("a", [4])]), in: nil)
        #expect(try world.emit(rounds: [6]).map(\.transactionID) == [6, 5, 6, nil])
        #expect(CompositeWorld.same(world.shown, CompositeWorld.list(world.machine.latest)))
    }

    @Test func aTranslationFailureStopsTheCompositeAndLaterChangesAreIgnored() throws {
        var world = world()
        try world.change(1, to: DiffSnapshot(keys: [("a", [1]), ("b", [3])]), in: 3)
        struct Broken: Error {}
        let failed = try world.handle(.partChanged(part: 2, transactionID: 4, translate: { _ in throw Broken() }))
        #expect(failed.map(\.name) == ["logError(2)", "reportFailure(inconsistency)"])
        #expect(world.machine.failure?.code == .inconsistency && world.logged.map(\.part) == [2])
        var translated = false
        let ignored = try world.handle(
            .partChanged(
                part: 1, transactionID: 5,
                translate: { _ in
                    translated = true
                    return nil
                }))
        #expect(ignored.isEmpty && !translated)
        // The change before the failure still goes out (the delegate hears of the failure after it).
        #expect(try world.emit(rounds: [5]).map(\.transactionID) == [3])
        let lost = FetchKitError(.connectionLost, message: "part stopped")
        #expect(try world.handle(.partFailed(lost)).map(\.name) == ["reportFailure(connectionLost)"])
    }

    @Test func performFetchStartsFromEveryPartsContentAndClosesTheParts() throws {
        var machine = CompositeMachine()
        let menu = PartContent(names: ["Menu"], counts: [1], window: nil, fixedRows: ["Settings"])
        #expect(machine.handle(.partAdded(.fixed(menu))).map(\.name) == ["addPart(0)"])
        #expect(machine.handle(.partAdded(.results)).map(\.name) == ["addPart(1)"])
        // Not started: a part's change is not followed.
        #expect(
            machine.handle(.partChanged(part: 1, transactionID: 1, translate: { _ in throw CancellationError() }))
                .isEmpty)
        let part = CompositeWorld.content(DiffSnapshot(keys: [("a", [1, 2])]))
        #expect(machine.handle(.fetchCompleted([1: part])).isEmpty)
        #expect(machine.started && machine.applied.map(\.counts) == [[1], [2]])
        #expect(machine.latest.map(\.names) == machine.applied.map(\.names))
        #expect(machine.handle(.partAdded(.results)).map(\.name) == ["refusePart"])
        // A second fetch starts again from the parts' content: what was pending is covered by it.
        let changed = CompositeWorld.content(DiffSnapshot(keys: [("a", [1])]))
        _ = machine.handle(
            .partChanged(
                part: 1, transactionID: 2,
                translate: { _ in (Changeset(sectionCountsBefore: [2], sectionCountsAfter: [1]), changed) }))
        #expect(machine.pending.count == 1 && machine.latest[1].counts == [1] && machine.applied[1].counts == [2])
        _ = machine.handle(.fetchCompleted([1: changed]))
        #expect(machine.pending.isEmpty && machine.applied.map(\.counts) == [[1], [1]])
    }

    @Test func withoutADelegateBatchesMoveTheContentButCallNoOne() throws {
        var world = world(delegate: false)
        try world.change(1, to: DiffSnapshot(keys: [("b", [3, 1])]), in: 2)
        let actions = try world.handle(.roundSynced(through: 2))
        #expect(actions.map(\.name) == ["continueRound"])
        #expect(try world.handle(.batchDelivered).isEmpty)
        #expect(world.batches.isEmpty && world.machine.applied[1].names == ["b"])
    }

    @Test("random part changes and rounds: every batch through ListSimulator, the composite ends at its parts")
    func randomChangesAndRounds() throws {
        let seed: UInt64 = 0x5eed_c0b0
        var generator = DiffPairGenerator(seed: seed)
        var (batches, merged, held) = (0, 0, 0)
        for run in 0..<150 {
            let parts = (0..<generator.random.int(1...3)).map { _ in generator.unorderedSnapshot() }
            var world = CompositeWorld(menu: generator.chance(0.5) ? ["Settings"] : [], parts: parts)
            var transaction: UInt64 = 0
            var through: UInt64 = 0
            for _ in 0..<40 {
                if generator.chance(0.1) {
                    // A part's fetch or request change.
                    try world.change(generator.random.int(1...parts.count), in: nil, using: &generator)
                } else if generator.chance(0.5) {
                    // A transaction that changes some of the parts, reported in any order.
                    transaction += 1
                    for part in (1...parts.count).shuffled(using: &generator.random) where generator.chance(0.6) {
                        // Sometimes the part refetched just before (it reports that first).
                        if generator.chance(0.1) { try world.change(part, in: nil, using: &generator) }
                        try world.change(part, in: transaction, using: &generator)
                    }
                } else {
                    // The loop's next step; a round is through a transaction every part applied.
                    through = UInt64(generator.random.int(Int(through)...Int(transaction)))
                    try world.emissionStep(through: through)
                }
            }
            while world.next != nil { try world.emissionStep(through: transaction) }
            try world.emit(rounds: [transaction])
            let context = "seed \(seed), run \(run)"
            #expect(world.machine.pending.isEmpty, "\(context)")
            let latest = CompositeWorld.list(world.machine.latest)
            #expect(CompositeWorld.same(CompositeWorld.list(world.machine.applied), latest), "\(context)")
            #expect(CompositeWorld.same(world.shown, latest), "\(context)")
            batches += world.batches.count
            merged += world.mergedBatches
            held += world.heldRounds
        }
        // The sequences must merge and hold back transactions, not only pass them through.
        #expect(batches > 1_500 && merged > 500 && held > 250)
    }
}
