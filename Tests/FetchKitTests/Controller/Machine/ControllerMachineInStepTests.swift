import Testing

@testable import FetchKit

/// A batch delivered at once to a delegate in step (`publishedInStep`) leaves the machine where the two events
/// it stands for — published, then the delegate's delivery — leave it; and it declines, changing nothing,
/// whenever the delegate is not in step.
@Suite("Controller machine, in-step delivery")
struct ControllerMachineInStepTests {
    typealias Machine = ControllerMachine<Row>

    private let start = ContinuousClock.now

    private func snapshot(_ ids: [Int64]) -> ResultsSnapshot<Row> {
        let rows: [Row] = ids.map { ["id": .integer($0)] }
        return ResultsSnapshot(rows: rows, objects: rows, primaryKey: "id", sectionKey: nil, order: nil)
    }

    /// A fetched machine with a delegate, showing `ids`.
    private func live(_ ids: [Int64] = [1]) -> Machine {
        var machine = Machine()
        _ = machine.handle(.fetchStarted, at: start)
        let results = snapshot(ids)
        _ = machine.handle(.published(.init(snapshot: results, previous: .init(), hasChanges: false)), at: start)
        _ = machine.handle(.fetchSucceeded, at: start)
        _ = machine.handle(.delegateChanged(true), at: start)
        return machine
    }

    private struct Observed: Equatable {
        var lastBatchThrough: UInt64
        var appliedThrough: UInt64
        var inStep: Bool
    }

    private func observe(_ machine: Machine) -> Observed {
        Observed(
            lastBatchThrough: machine.lastBatchThrough, appliedThrough: machine.appliedThrough,
            inStep: machine.delegateShown == nil && machine.delegateMoves.isEmpty)
    }

    @Test func anInStepBatchEndsWhereTheTwoEventsEnd() throws {
        var fused = live()
        var twoSteps = fused
        for (transaction, ids) in [(UInt64(4), [Int64(1), 2]), (7, [2]), (9, [2, 3])] {
            let publication = Machine.Publication(
                snapshot: snapshot(ids), previous: fused.results, hasChanges: true, transactionID: transaction)
            let decided = fused.publishedInStep(publication)
            let step = try #require(decided)
            var covered: ClosedRange<UInt64>?
            for case .publish(let covering, let toDelegate, _) in twoSteps.handle(.published(publication), at: start) {
                #expect(toDelegate)
                covered = covering
            }
            let update = ResultsBatch(
                previous: publication.previous, snapshot: publication.snapshot, changeset: nil,
                transactionID: transaction, transactions: covered)
            _ = twoSteps.handle(.delegateDelivery(update, replay: nil), at: start)
            #expect(step == InStepDelivery(toDelegate: true, covering: covered))
            #expect(fused.results.isIdentical(to: publication.snapshot))
            #expect(twoSteps.results.isIdentical(to: publication.snapshot))
            #expect(fused.lastBatchThrough == twoSteps.lastBatchThrough)
            #expect(fused.appliedThrough == twoSteps.appliedThrough)
            #expect(fused.delegateShown == nil && twoSteps.delegateShown == nil)
        }
        #expect(fused.lastBatchThrough == 9)
    }

    @Test func aBatchWithoutChangesReachesNoDelegateButCountsAsApplied() throws {
        var machine = live()
        let same = snapshot([1])
        let decided = machine.publishedInStep(
            .init(snapshot: same, previous: machine.results, hasChanges: false, transactionID: 3))
        let step = try #require(decided)
        #expect(step == InStepDelivery(toDelegate: false, covering: nil))
        #expect(machine.appliedThrough == 3)
        #expect(machine.lastBatchThrough == 0)
        // A reconciling batch reaches the delegate even when empty.
        let reconciled = machine.publishedInStep(
            .init(snapshot: snapshot([1]), previous: same, hasChanges: false, transactionID: nil, reconcile: true))
        let again = try #require(reconciled)
        #expect(again.toDelegate)
    }

    @Test func aDelegateNotInStepTakesTheTwoEventsAndNothingChanges() {
        let next = snapshot([1, 2])
        var cases: [(String, Machine, ResultsSnapshot<Row>)] = []
        var noDelegate = live()
        _ = noDelegate.handle(.delegateChanged(false), at: start)
        cases.append(("no delegate", noDelegate, noDelegate.results))
        let other = live()
        cases.append(("another previous", other, snapshot([1])))
        var onItsWay = live()
        // A batch published for a delegate on an actor, not delivered yet: the delegate shows the older results.
        _ = onItsWay.handle(
            .published(.init(snapshot: snapshot([5]), previous: onItsWay.results, hasChanges: true, transactionID: 2)),
            at: start)
        cases.append(("a batch on its way", onItsWay, onItsWay.results))
        var moved = live()
        let shown = snapshot([1])
        _ = moved.handle(
            .userMoved(base: moved.results, shown: shown, key: 1, destination: .endOfSection("")), at: start)
        cases.append(("a waiting move", moved, moved.results))
        var failed = live()
        _ = failed.handle(.stopped(.inconsistency("injected")), at: start)
        cases.append(("stopped", failed, failed.results))
        for (name, machine, previous) in cases {
            var tried = machine
            let before = observe(tried)
            let step = tried.publishedInStep(
                .init(snapshot: next, previous: previous, hasChanges: true, transactionID: 8))
            #expect(step == nil, "\(name)")
            #expect(observe(tried) == before, "\(name)")
            #expect(tried.results.isIdentical(to: machine.results), "\(name)")
        }
    }
}
