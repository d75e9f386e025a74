import Testing

@testable import FetchKit

/// The controller's failure channel and delegate bookkeeping as a value: events in, actions out, no I/O.
@Suite("Controller machine")
struct ControllerMachineTests {
    typealias Machine = ControllerMachine<Row>

    private let start = ContinuousClock.now
    private let lost = FetchKitError(.connectionLost, message: "injected")

    private func live() -> Machine { .fetched(at: start) }

    private func delays(_ actions: [Machine.Action]) -> [Duration] {
        actions.compactMap { if case .scheduleRetry(let delay, _) = $0 { delay } else { nil } }
    }

    @Test func aTransientFailureRetriesWithDoublingDelaysUpToTwoSeconds() {
        var machine = live()
        var seen: [Duration] = []
        var now = start
        for _ in 0..<8 {
            seen += delays(machine.handle(.readFailed(lost), at: now))
            now += .seconds(3)
        }
        #expect(
            seen == [
                .milliseconds(50), .milliseconds(100), .milliseconds(200), .milliseconds(400),
                .milliseconds(800), .milliseconds(1_600), .seconds(2), .seconds(2)
            ])
        #expect(machine.status == .resyncing(lost))
        #expect(machine.isStale)
    }

    @Test func aRetryIsDueOnlyOnceItsDelayIsOver() {
        var machine = live()
        _ = machine.handle(.readFailed(lost), at: start)
        // A timer replaced by a later schedule fires early (cancelled): not this retry.
        #expect(machine.handle(.retryDue, at: start + .milliseconds(10)).isEmpty)
        let due = machine.handle(.retryDue, at: start + .milliseconds(50))
        #expect(due.contains { if case .refetch = $0 { true } else { false } })
        // Due once.
        #expect(machine.handle(.retryDue, at: start + .seconds(1)).isEmpty)
    }

    @Test func syncWaitsWhileStaleAndIsReleasedWhenTheControllerCatchesUp() {
        var machine = live()
        #expect(machine.handle(.syncRequested, at: start).contains { if case .resumeSync = $0 { true } else { false } })
        _ = machine.handle(.readFailed(lost), at: start)
        #expect(machine.handle(.syncRequested, at: start).isEmpty)
        #expect(machine.handle(.syncRequested, at: start).isEmpty)
        #expect(machine.heldSyncs == 2)
        _ = machine.handle(.retryDue, at: start + .seconds(1))
        let caughtUp = machine.handle(.caughtUp, at: start + .seconds(1))
        #expect(caughtUp.contains { if case .releaseSyncs = $0 { true } else { false } })
        #expect(caughtUp.contains { if case .reportStatus(.live, _) = $0 { true } else { false } })
        #expect(machine.heldSyncs == 0)
        #expect(machine.retryDelay == Machine.firstRetryDelay)
    }

    @Test func aPermanentFailureStopsOnceReleasesSyncsAndCancelsTheRetry() {
        var machine = live()
        _ = machine.handle(.readFailed(lost), at: start)
        _ = machine.handle(.syncRequested, at: start)
        let dropped = FetchKitError(.schemaMismatch, message: "table dropped")
        let actions = machine.handle(.readFailed(dropped), at: start)
        #expect(actions.contains { if case .cancelRetry = $0 { true } else { false } })
        #expect(actions.contains { if case .releaseSyncs = $0 { true } else { false } })
        #expect(actions.contains { if case .stop = $0 { true } else { false } })
        #expect(machine.status == .failed(dropped))
        // Stopped: nothing more happens.
        #expect(machine.handle(.readFailed(lost), at: start).isEmpty)
        #expect(machine.handle(.stopped(lost), at: start).isEmpty)
        #expect(machine.handle(.retryDue, at: start + .seconds(5)).isEmpty)
    }

    @Test func aFetchThatThrowsRestoresTheStatus() {
        var machine = live()
        _ = machine.handle(.readFailed(lost), at: start)
        #expect(machine.handle(.fetchStarted, at: start).count == 1)
        #expect(machine.status == .fetching)
        _ = machine.handle(.fetchFailed, at: start)
        #expect(machine.status == .resyncing(lost))
        // One that works catches the controller up.
        _ = machine.handle(.fetchStarted, at: start)
        let actions = machine.handle(.fetchSucceeded, at: start)
        #expect(actions.contains { if case .cancelRetry = $0 { true } else { false } })
        #expect(machine.status == .live && !machine.isStale)
    }

    @Test func theLagSetsTheStatusOnlyWhileFollowingTheStore() {
        var machine = live()
        let behind = machine.handle(.lagMeasured(.milliseconds(1_450)), at: start)
        #expect(behind.contains { if case .logLag(true, _) = $0 { true } else { false } })
        #expect(machine.status == .catchingUp(lag: .milliseconds(1_400)))
        #expect(
            machine.handle(.lagMeasured(.milliseconds(100)), at: start).contains {
                if case .reportStatus(.live, _) = $0 { true } else { false }
            })
        _ = machine.handle(.readFailed(lost), at: start)
        _ = machine.handle(.lagMeasured(.seconds(5)), at: start)
        #expect(machine.status == .resyncing(lost))
    }

    @Test func aBatchThatCannotBeBuiltStopsTheControllerWithAnInconsistency() {
        var machine = live()
        _ = machine.handle(.delegateChanged(true), at: start)
        let rows: [Row] = [["id": 1, "s": "A"], ["id": 2, "s": "B"], ["id": 3, "s": "A"]]
        // Sections that are not contiguous: no batch can lead there.
        let broken = ResultsSnapshot(rows: rows, objects: rows, primaryKey: "id", sectionKey: "s", order: nil)
        let one: [Row] = [["id": 1, "s": "A"]]
        let fine = ResultsSnapshot(rows: one, objects: one, primaryKey: "id", sectionKey: "s", order: nil)
        let publication = ControllerMachine<Row>.Publication(
            snapshot: broken, previous: fine, hasChanges: true, transactionID: 7)
        #expect(machine.handle(.published(publication), at: start).count == 1)
        let update = ResultsBatch(previous: machine.results, snapshot: broken, changeset: nil, transactionID: 7)
        let actions = machine.handle(
            .delegateDelivery(update, replay: { results, _, _ in MovedResults(snapshot: results) }), at: start)
        #expect(actions.contains { if case .stop(let error, _) = $0 { error.code == .inconsistency } else { false } })
        #expect(machine.hasFailed)
    }

    @Test func aDropPlannedFromAnOutdatedViewIsPlannedAgain() {
        var machine = live()
        _ = machine.handle(.delegateChanged(true), at: start)
        let stale = ResultsSnapshot<Row>()
        let actions = machine.handle(
            .userMoved(base: stale, shown: stale, key: 1, destination: .endOfSection("")), at: start)
        #expect(actions.count == 1)
        #expect(actions.contains { if case .replanMove = $0 { true } else { false } })
        #expect(machine.delegateMoves.isEmpty)
    }
}
