import Synchronization
import Testing

@testable import FetchKit

/// A feed that cannot deliver is never `.live`: the controller machine told the feed's interruptions and returns,
/// interleaved with fetches, failures, lag and stopping.
@Suite("Controller machine: the feed's delivery")
struct ControllerMachineFeedTests {
    typealias Machine = ControllerMachine<Row>

    private let start = ContinuousClock.now
    private let blind = FetchKitError.connectionLost("the change feed is reconnecting")
    private let lost = FetchKitError(.connectionLost, message: "a read failed")
    private let ids = Counter()

    /// Increasing IDs for the feed's reports, as a store numbers its changes.
    final class Counter: Sendable {
        private let value = Mutex<UInt64>(0)
        func next() -> UInt64 {
            value.withLock {
                $0 += 1
                return $0
            }
        }
    }

    private func next() -> UInt64 { ids.next() }

    private func live() -> Machine { .fetched(at: start) }

    private func reported(_ actions: [Machine.Action]) -> [ResultsStatus] {
        actions.compactMap { if case .reportStatus(let status, _) = $0 { status } else { nil } }
    }

    @Test func anInterruptionLeavesLiveAtOnceAndTheResumptionReturns() {
        var machine = live()
        #expect(reported(machine.handle(.feedInterrupted(blind, id: next()), at: start)) == [.resyncing(blind)])
        // Lag measured meanwhile does not make it live.
        #expect(machine.handle(.lagMeasured(.zero), at: start).isEmpty)
        #expect(machine.status == .resyncing(blind))
        #expect(reported(machine.handle(.feedResumed(id: next()), at: start)) == [.live])
        // A second resumption changes nothing.
        #expect(machine.handle(.feedResumed(id: next()), at: start).isEmpty)
    }

    @Test func aResumptionWhileBehindReportsTheLag() {
        var machine = live()
        _ = machine.handle(.lagMeasured(.seconds(2)), at: start)
        #expect(machine.status == .catchingUp(lag: .seconds(2)))
        _ = machine.handle(.feedInterrupted(blind, id: next()), at: start)
        #expect(machine.status == .resyncing(blind))
        #expect(reported(machine.handle(.feedResumed(id: next()), at: start)) == [.catchingUp(lag: .seconds(2))])
    }

    @Test func aFetchDuringAnInterruptionIsNotLive() {
        var machine = Machine()
        _ = machine.handle(.feedInterrupted(blind, id: next()), at: start)
        #expect(machine.status == .idle)
        _ = machine.handle(.fetchStarted, at: start)
        _ = machine.handle(.fetchSucceeded, at: start)
        #expect(machine.status == .resyncing(blind))
        _ = machine.handle(.feedResumed(id: next()), at: start)
        #expect(machine.status == .live)
    }

    @Test func aFetchThatFailsWhileTheFeedWasInterruptedRestoresNoLiveStatus() {
        var machine = live()
        _ = machine.handle(.fetchStarted, at: start)
        _ = machine.handle(.feedInterrupted(blind, id: next()), at: start)
        #expect(machine.status == .fetching)
        _ = machine.handle(.fetchFailed, at: start)
        #expect(machine.status == .resyncing(blind))
    }

    @Test func aStaleControllerCaughtUpDuringAnInterruptionStaysOutOfLive() {
        var machine = live()
        _ = machine.handle(.readFailed(lost), at: start)
        _ = machine.handle(.feedInterrupted(blind, id: next()), at: start)
        // The read failure's status stays: the controller is stale and retrying.
        #expect(machine.status == .resyncing(lost))
        #expect(machine.handle(.feedResumed(id: next()), at: start).isEmpty)
        #expect(machine.status == .resyncing(lost))
        _ = machine.handle(.feedInterrupted(blind, id: next()), at: start)
        _ = machine.handle(.retryDue, at: start + .seconds(1))
        _ = machine.handle(.caughtUp, at: start + .seconds(1))
        #expect(machine.status == .resyncing(blind))
        _ = machine.handle(.feedResumed(id: next()), at: start + .seconds(1))
        #expect(machine.status == .live)
    }

    @Test func aLateResumptionDoesNotClearANewerInterruption() {
        var machine = live()
        // Resumed through 3, queued behind a refetch; interrupted again (5) before the queue reached it.
        _ = machine.handle(.feedInterrupted(blind, id: 1), at: start)
        _ = machine.handle(.feedInterrupted(blind, id: 5), at: start)
        #expect(machine.handle(.feedResumed(id: 3), at: start).isEmpty)
        #expect(machine.status == .resyncing(blind))
        #expect(reported(machine.handle(.feedResumed(id: 6), at: start)) == [.live])
    }

    @Test func aLateInterruptionDoesNotUndoANewerResumption() {
        var machine = live()
        // A controller attaching read the interruption (4), but the resumption (7) reached it first.
        _ = machine.handle(.feedResumed(id: 7), at: start)
        #expect(machine.handle(.feedInterrupted(blind, id: 4), at: start).isEmpty)
        #expect(machine.status == .live)
    }

    @Test func aStoppedControllerStaysStopped() {
        var machine = live()
        _ = machine.handle(.stopped(.closed), at: start)
        #expect(machine.handle(.feedInterrupted(blind, id: next()), at: start).isEmpty)
        #expect(machine.handle(.feedResumed(id: next()), at: start).isEmpty)
        #expect(machine.status == .failed(.closed))
    }
}
