import FetchKitBackendKit
import Testing

@testable import FetchKitPostgres

/// The trigger feed's lag: the listener's probes, sent every lag-check interval and delivered in commit order
/// with the notifications, say since when it has not received what the server committed.
@Suite("Listener probes")
struct ListenerProbeTests {
    typealias Machine = ListenerStateMachine

    let t0 = ContinuousClock.now
    static let options = PostgresStore.ListenerOptions(
        pingInterval: .seconds(5), pingTimeout: .seconds(2), lagCheckInterval: .milliseconds(200))

    func at(_ milliseconds: Int) -> ContinuousClock.Instant { t0 + .milliseconds(milliseconds) }

    func listening() -> Machine {
        var machine = Machine(options: Self.options, schemaName: "app", probeToken: "me")
        _ = machine.handle(.start, at: t0)
        _ = machine.handle(.connected, at: t0)
        return machine
    }

    @Test func aProbeThatArrivesInTimeIsNoBacklog() {
        var machine = listening()
        #expect(machine.deadline == at(200))
        #expect(machine.handle(.tick(markerAwaited: false), at: at(200)) == [.sendProbe("fetchkit-probe:me:1")])
        #expect(machine.handle(.inputReceived(["fetchkit-probe:me:1"]), at: at(201)) == [])
        #expect(machine.handle(.tick(markerAwaited: false), at: at(400)) == [.sendProbe("fetchkit-probe:me:2")])
    }

    @Test func aProbeOutForAnIntervalIsABacklogUntilItArrives() {
        var machine = listening()
        _ = machine.handle(.tick(markerAwaited: false), at: at(200))
        // The first probe is still out when the second goes: behind since an interval before it was sent.
        #expect(
            machine.handle(.tick(markerAwaited: false), at: at(400)) == [
                .sendProbe("fetchkit-probe:me:2"), .reportBacklog(since: at(0))
            ])
        // The first arrives: the second has been out for less than an interval.
        #expect(machine.handle(.inputReceived(["fetchkit-probe:me:1"]), at: at(450)) == [.reportBacklog(since: nil)])
        // A later probe's arrival accounts for every earlier one.
        _ = machine.handle(.tick(markerAwaited: false), at: at(600))
        _ = machine.handle(.tick(markerAwaited: false), at: at(800))
        #expect(machine.probes.count == 3)
        _ = machine.handle(.inputReceived(["fetchkit-probe:me:4"]), at: at(801))
        #expect(machine.probes.isEmpty)
    }

    @Test func aProbeIsOutFromWhenItCommitted() {
        var machine = listening()
        _ = machine.handle(.tick(markerAwaited: false), at: at(200))
        // Sending it took 150 ms (a busy server): the probe is out from then.
        #expect(machine.handle(.probeSent, at: at(350)) == [])
        #expect(machine.handle(.inputReceived(["fetchkit-probe:me:1"]), at: at(360)) == [])
        #expect(machine.handle(.tick(markerAwaited: false), at: at(400)) == [.sendProbe("fetchkit-probe:me:2")])
        #expect(machine.handle(.probeFailed, at: at(401)) == [])
        #expect(machine.probes.isEmpty)
    }

    @Test func aProbeOverdueChecksTheConnection() {
        var machine = listening()
        var now = 200
        while now < 4_200 {
            _ = machine.handle(.tick(markerAwaited: false), at: at(now))
            now += 200
        }
        #expect(machine.state == .streaming)
        // The first probe has been out for twice the publish timeout (2 s by default): the listener pings.
        let overdue = machine.handle(.tick(markerAwaited: false), at: at(4_200))
        #expect(overdue.contains(.sendPing))
        guard case .stalled = machine.state else {
            Issue.record("state \(machine.state)")
            return
        }
    }

    /// A probe overdue at the tick a routine ping is due at checks the connection once: the stall's ping is that
    /// ping, and the listener stays stalled until it is answered (then reports listening again).
    @Test func aProbeOverdueWhenAPingIsDueSendsOnePing() {
        var machine = listening()
        _ = machine.handle(.tick(markerAwaited: false), at: at(200))
        let actions = machine.handle(.tick(markerAwaited: false), at: at(5_000))
        #expect(actions.filter { $0 == .sendPing }.count == 1)
        guard case .stalled(_, let deadline) = machine.state else {
            Issue.record("state \(machine.state)")
            return
        }
        #expect(deadline == at(7_000))
        #expect(machine.handle(.pingAnswered, at: at(5_010)).first == .reportState(.listening))
    }

    @Test func anotherListenersProbeIsNeitherAChangeNorUnreadable() {
        var machine = listening()
        #expect(machine.handle(.inputReceived(["fetchkit-probe:other:7"]), at: at(10)) == [])
        #expect(machine.pendingTransactionID == nil)
    }

    @Test func nothingArrivingForTwoIntervalsIsABacklogSinceTheLastArrival() {
        var machine = listening()
        _ = machine.handle(.tick(markerAwaited: false), at: at(200))
        _ = machine.handle(.inputReceived(["fetchkit-probe:me:1"]), at: at(210))
        // A probe could not be sent on time (a starved thread): the next one goes 500 ms later. It is out for a
        // moment only, but nothing has arrived since the probe sent at 200 ms: behind since then.
        #expect(
            machine.handle(.tick(markerAwaited: false), at: at(700)) == [
                .sendProbe("fetchkit-probe:me:2"), .reportBacklog(since: at(200))
            ])
    }

    @Test func aReconnectionForgetsTheProbesOut() {
        var machine = listening()
        _ = machine.handle(.tick(markerAwaited: false), at: at(200))
        _ = machine.handle(.tick(markerAwaited: false), at: at(400))
        _ = machine.handle(.connectionLost("gone"), at: at(410))
        _ = machine.handle(.tick(markerAwaited: false), at: at(460))
        _ = machine.handle(.connected, at: at(470))
        #expect(machine.probes.isEmpty && machine.backlogSince == nil)
        #expect(machine.deadline == at(670))
    }
}
