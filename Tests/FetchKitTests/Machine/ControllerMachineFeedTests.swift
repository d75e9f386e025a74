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

    private func live() -> Machine { .fetched(at: start) }

    private func reported(_ actions: [Machine.Action]) -> [ResultsStatus] {
        actions.compactMap { if case .reportStatus(let status) = $0 { status } else { nil } }
    }

    @Test func anInterruptionLeavesLiveAtOnceAndTheResumptionReturns() {
        var machine = live()
        #expect(reported(machine.handle(.feedInterrupted(blind), at: start)) == [.resyncing(blind)])
        // Lag measured meanwhile does not make it live.
        #expect(machine.handle(.lagMeasured(.zero), at: start).isEmpty)
        #expect(machine.status == .resyncing(blind))
        #expect(reported(machine.handle(.feedResumed, at: start)) == [.live])
        // A second resumption changes nothing.
        #expect(machine.handle(.feedResumed, at: start).isEmpty)
    }

    @Test func aResumptionWhileBehindReportsTheLag() {
        var machine = live()
        _ = machine.handle(.lagMeasured(.seconds(2)), at: start)
        #expect(machine.status == .catchingUp(lag: .seconds(2)))
        _ = machine.handle(.feedInterrupted(blind), at: start)
        #expect(machine.status == .resyncing(blind))
        #expect(reported(machine.handle(.feedResumed, at: start)) == [.catchingUp(lag: .seconds(2))])
    }

    @Test func aFetchDuringAnInterruptionIsNotLive() {
        var machine = Machine()
        _ = machine.handle(.feedInterrupted(blind), at: start)
        #expect(machine.status == .idle)
        _ = machine.handle(.fetchStarted, at: start)
        _ = machine.handle(.fetchSucceeded, at: start)
        #expect(machine.status == .resyncing(blind))
        _ = machine.handle(.feedResumed, at: start)
        #expect(machine.status == .live)
    }

    @Test func aFetchThatFailsWhileTheFeedWasInterruptedRestoresNoLiveStatus() {
        var machine = live()
        _ = machine.handle(.fetchStarted, at: start)
        _ = machine.handle(.feedInterrupted(blind), at: start)
        #expect(machine.status == .fetching)
        _ = machine.handle(.fetchFailed, at: start)
        #expect(machine.status == .resyncing(blind))
    }

    @Test func aStaleControllerCaughtUpDuringAnInterruptionStaysOutOfLive() {
        var machine = live()
        _ = machine.handle(.readFailed(lost), at: start)
        _ = machine.handle(.feedInterrupted(blind), at: start)
        // The read failure's status stays: the controller is stale and retrying.
        #expect(machine.status == .resyncing(lost))
        #expect(machine.handle(.feedResumed, at: start).isEmpty)
        #expect(machine.status == .resyncing(lost))
        _ = machine.handle(.feedInterrupted(blind), at: start)
        _ = machine.handle(.retryDue, at: start + .seconds(1))
        _ = machine.handle(.caughtUp, at: start + .seconds(1))
        #expect(machine.status == .resyncing(blind))
        _ = machine.handle(.feedResumed, at: start + .seconds(1))
        #expect(machine.status == .live)
    }

    @Test func aStoppedControllerStaysStopped() {
        var machine = live()
        _ = machine.handle(.stopped(.closed), at: start)
        #expect(machine.handle(.feedInterrupted(blind), at: start).isEmpty)
        #expect(machine.handle(.feedResumed, at: start).isEmpty)
        #expect(machine.status == .failed(.closed))
    }
}
