import Synchronization
import Testing

@testable import FetchKit

/// Who hears the controller, as part of its machine: readers, `sync()` waiters and the retry are held and
/// handed out by its events and actions alone.
@Suite("Controller machine: its audience")
struct ControllerAudienceTests {
    typealias Machine = ControllerMachine<Row>

    private let start = ContinuousClock.now
    private let lost = FetchKitError(.connectionLost, message: "injected")

    @Test func heldSyncsAreHandedBackOnceWhenTheControllerCatchesUp() {
        var machine = Machine.fetched(at: start)
        let resumed = Atomic(0)
        let waiter = SyncWaiter { resumed.add(1, ordering: .relaxed) }
        // Live: resumed at once, not held.
        let now = machine.handle(.syncRequested(waiter), at: start)
        #expect(now.contains { if case .resumeSync = $0 { true } else { false } })
        #expect(machine.audience.heldSyncs.isEmpty)
        _ = machine.handle(.readFailed(lost), at: start)
        _ = machine.handle(.syncRequested(waiter), at: start)
        _ = machine.handle(.syncRequested(waiter), at: start)
        _ = machine.handle(.retryDue, at: start + .seconds(1))
        let released = machine.handle(.caughtUp, at: start + .seconds(1)).flatMap { action -> [SyncWaiter] in
            if case .releaseSyncs(let waiters) = action { waiters } else { [] }
        }
        #expect(released.count == 2)
        for waiter in released { waiter.resume() }
        #expect(resumed.load(ordering: .relaxed) == 2)
        #expect(machine.audience.heldSyncs.isEmpty)
    }

    @Test func aStatusReaderIsGreetedWithTheStatusAndHearsEachChange() {
        var machine = Machine.fetched(at: start)
        let (stream, reader) = AsyncStream.makeStream(of: ResultsStatus.self)
        _ = stream
        let greeted = machine.handle(.statusSubscribed(reader, id: 1), at: start)
        #expect(greeted.contains { if case .greetStatusReader(_, .live) = $0 { true } else { false } })
        let failed = machine.handle(.readFailed(lost), at: start)
        #expect(
            failed.contains {
                if case .reportStatus(.resyncing, let readers) = $0 { readers.count == 1 } else { false }
            })
        _ = machine.handle(.statusEnded(id: 1), at: start)
        let again = machine.handle(.readFailed(FetchKitError(.schemaMismatch, message: "gone")), at: start)
        #expect(again.contains { if case .reportStatus(.failed, let readers) = $0 { readers.isEmpty } else { false } })
    }

    @Test func anUpdateReaderBeforeTheFirstFetchGetsTheFirstResultsAfterItStartsFromThem() {
        var machine = Machine()
        let early = UpdateBuffer<Row>(
            limit: 4, reapply: { results, _, _ in MovedResults(snapshot: results) },
            fail: {
                FetchKitError.inconsistency("\($0)")
            })
        #expect(machine.handle(.updatesSubscribed(early, id: 7), at: start).isEmpty)
        #expect(machine.audience.awaitingInitial == [7])
        _ = machine.handle(.fetchStarted, at: start)
        let published = machine.handle(
            .published(.init(snapshot: .init(), previous: .init(), hasChanges: false)), at: start)
        #expect(published.contains { if case .publish(_, _, let initial) = $0 { initial == [7] } else { false } })
        #expect(machine.audience.awaitingInitial.isEmpty)
        // A later reader starts from the results under the lock.
        let later = UpdateBuffer<Row>(
            limit: 4, reapply: { results, _, _ in MovedResults(snapshot: results) },
            fail: {
                FetchKitError.inconsistency("\($0)")
            })
        #expect(
            machine.handle(.updatesSubscribed(later, id: 8), at: start).contains {
                if case .startReader = $0 { true } else { false }
            })
        _ = machine.handle(.updatesEnded(id: 8), at: start)
        // Stopping hands the remaining readers to the interpreter, which ends them; a reader after that ends at once.
        let stopped = machine.handle(.stopped(.closed), at: start)
        #expect(stopped.contains { if case .stop(_, let stopping) = $0 { stopping.readers != nil } else { false } })
        #expect(machine.audience.subscribers == nil)
        #expect(
            machine.handle(.updatesSubscribed(later, id: 9), at: start).contains {
                if case .endReader(_, let error) = $0 { error.code == .closed } else { false }
            })
    }

    @Test func aRetryScheduledAgainCancelsTheOneBefore() {
        var machine = Machine.fetched(at: start)
        _ = machine.handle(.readFailed(lost), at: start)
        let first = Task<Void, Never> {}
        _ = machine.handle(.retryScheduled(first), at: start)
        let again = machine.handle(.readFailed(lost), at: start + .milliseconds(60))
        #expect(
            again.contains { if case .scheduleRetry(_, let replaced) = $0 { replaced == first } else { false } })
        let second = Task<Void, Never> {}
        _ = machine.handle(.retryScheduled(second), at: start)
        _ = machine.handle(.retryDue, at: start + .seconds(1))
        let caughtUp = machine.handle(.caughtUp, at: start + .seconds(1))
        #expect(caughtUp.contains { if case .cancelRetry(let retry) = $0 { retry == second } else { false } })
        #expect(machine.audience.retry == nil)
    }

    @Test func countsAreTheMachines() {
        var machine = Machine.fetched(at: start)
        for count: ControllerCounts.Count in [
            .incremental(keysetRefill: true), .incremental(keysetRefill: false), .routed,
            .fullRefresh, .coalesced
        ] {
            _ = machine.handle(.counted(count), at: start)
        }
        #expect(
            machine.counts
                == ControllerCounts(
                    incrementalUpdates: 2, routedUpdates: 1, keysetRefills: 1, fullRefreshes: 1, coalescedDeliveries: 1)
        )
        _ = machine.handle(.incrementalPathEnabled(false), at: start)
        #expect(!machine.isIncrementalEnabled)
    }
}
