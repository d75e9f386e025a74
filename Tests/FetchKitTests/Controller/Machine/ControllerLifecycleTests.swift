import Testing

@testable import FetchKit

/// The controller's lifecycle is one value: each step leaves it in exactly one case, and the status is derived
/// from it, the feed's delivery and the lag — never stored beside it.
@Suite("Controller machine: the lifecycle")
struct ControllerLifecycleTests {
    typealias Machine = ControllerMachine<Row>

    private let start = ContinuousClock.now
    private let lost = FetchKitError(.connectionLost, message: "injected")
    private let blind = FetchKitError.connectionLost("the feed reconnects")

    @Test func aFirstFetchGoesFromIdleThroughFetchingToFollowing() {
        var machine = Machine()
        #expect(machine.lifecycle == .idle && machine.status == .idle)
        #expect(machine.handle(.fetchStarted, at: start).map(\.reportedStatus) == [.fetching])
        #expect(machine.lifecycle == .fetching(returningTo: .idle))
        _ = machine.handle(.fetchSucceeded, at: start)
        #expect(machine.lifecycle == .following && machine.status == .live)
    }

    @Test func aFailedFirstFetchReturnsToIdle() {
        var machine = Machine()
        _ = machine.handle(.fetchStarted, at: start)
        #expect(machine.handle(.fetchFailed, at: start).map(\.reportedStatus) == [.idle])
        #expect(machine.lifecycle == .idle)
    }

    @Test func aFetchOverAStaleReadStaysStaleUntilItWorks() {
        var machine = Machine.fetched(at: start)
        _ = machine.handle(.readFailed(lost), at: start)
        _ = machine.handle(.fetchStarted, at: start)
        // Still stale under the fetch: changes wait, sync() is held, the retry stays scheduled.
        #expect(machine.isStale && machine.status == .fetching)
        #expect(machine.handle(.syncRequested, at: start).isEmpty)
        #expect(machine.heldSyncs == 1)
        // The retry of the stale read can still come due under it.
        #expect(machine.handle(.retryDue, at: start + .seconds(1)).contains { $0.isRefetch })
        let caughtUp = machine.handle(.caughtUp, at: start + .seconds(1))
        #expect(caughtUp.contains { if case .releaseSyncs = $0 { true } else { false } })
        #expect(machine.lifecycle == .fetching(returningTo: .following) && !machine.isStale)
        _ = machine.handle(.fetchFailed, at: start + .seconds(1))
        #expect(machine.lifecycle == .following && machine.status == .live)
    }

    @Test func aReadThatFailsUnderAFetchLeavesTheControllerStaleWhenTheFetchThrows() {
        var machine = Machine.fetched(at: start)
        _ = machine.handle(.fetchStarted, at: start)
        #expect(machine.handle(.readFailed(lost), at: start).contains { $0.isScheduledRetry })
        #expect(machine.status == .fetching && machine.isStale)
        #expect(machine.handle(.fetchFailed, at: start).map(\.reportedStatus) == [.resyncing(lost)])
        #expect(machine.isStale)
    }

    @Test func aStoppedControllerStartsAgainWithAFetch() {
        var machine = Machine.fetched(at: start)
        _ = machine.handle(.stopped(.closed), at: start)
        #expect(machine.lifecycle == .failed(.closed) && machine.hasFailed)
        _ = machine.handle(.fetchStarted, at: start)
        #expect(!machine.hasFailed && machine.status == .fetching)
        // A fetch that throws leaves it stopped.
        _ = machine.handle(.fetchFailed, at: start)
        #expect(machine.status == .failed(.closed))
        _ = machine.handle(.fetchStarted, at: start)
        _ = machine.handle(.fetchSucceeded, at: start)
        #expect(machine.lifecycle == .following && machine.status == .live)
    }

    @Test func theStatusIsDerivedAndReportedOnlyWhenItChanges() {
        var machine = Machine.fetched(at: start)
        #expect(machine.handle(.feedInterrupted(blind, id: 1), at: start).map(\.reportedStatus) == [.resyncing(blind)])
        // Behind while blind: still resyncing, nothing to report.
        #expect(machine.handle(.lagMeasured(.seconds(2)), at: start).compactMap(\.reportedStatus).isEmpty)
        #expect(
            machine.handle(.feedResumed(id: 2), at: start).map(\.reportedStatus)
                == [.catchingUp(lag: .seconds(2))])
        #expect(machine.handle(.lagMeasured(.zero), at: start).compactMap(\.reportedStatus) == [.live])
        #expect(machine.handle(.lagMeasured(.zero), at: start).isEmpty)
    }

    @Test func aStopReportsTheFailureBeforeItTellsTheDelegate() {
        var machine = Machine.fetched(at: start)
        let actions = machine.handle(.stopped(.closed), at: start)
        #expect(actions.first?.reportedStatus == .failed(.closed))
        #expect(actions.last.map { if case .stop = $0 { true } else { false } } == true)
    }
}

extension ControllerMachine.Action {
    /// The status this action reports, if it reports one.
    var reportedStatus: ResultsStatus? {
        if case .reportStatus(let status, _) = self { status } else { nil }
    }

    var isRefetch: Bool { if case .refetch = self { true } else { false } }

    var isScheduledRetry: Bool { if case .scheduleRetry = self { true } else { false } }
}

/// Which routed changes the results hold, decided by the machine from the fetches and moves it is told of.
@Suite("Controller machine: the read horizon")
struct ReadHorizonTests {
    private let start = ContinuousClock.now

    private func change(_ id: UInt64) -> StoreChange {
        StoreChange(transactionID: id, tables: ["todo": TableChange(updated: [.integer(1)])])
    }

    @Test func aFetchAdmitsOnlyTheChangesAfterItAndDistrustsReadsRoutedDuringIt() {
        var machine = ControllerMachine<Row>.fetched(at: start)
        _ = machine.handle(.fetchInstalled(fetchStart: 5, routedThrough: 7), at: start)
        #expect(!machine.horizon.admits(change(5)))
        #expect(machine.horizon.admits(change(6)))
        #expect(machine.horizon.admits(.resync(transactionID: 3)))
        // Rows re-read for changes routed while the fetch ran may be older than its results.
        #expect(!machine.horizon.trustsReads(routedThrough: 7))
        #expect(machine.horizon.trustsReads(routedThrough: 8))
    }

    @Test func aWrittenMoveDistrustsTheReadsBeforeItAndNeverLowersTheHorizon() {
        var machine = ControllerMachine<Row>.fetched(at: start)
        _ = machine.handle(.fetchInstalled(fetchStart: 2, routedThrough: 4), at: start)
        _ = machine.handle(.moveWritten(through: 9), at: start)
        #expect(!machine.horizon.trustsReads(routedThrough: 9))
        _ = machine.handle(.moveWritten(through: 3), at: start)
        _ = machine.handle(.fetchInstalled(fetchStart: 10, routedThrough: 6), at: start)
        #expect(machine.horizon == ReadHorizon(fetchedThrough: 10, ownReadsThrough: 9))
    }
}
