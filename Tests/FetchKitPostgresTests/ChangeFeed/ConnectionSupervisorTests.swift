import FetchKit
import Testing

@testable import FetchKitPostgres

/// The connection supervision both PostgreSQL feeds share, without a server: starting, pings after silence,
/// stalls, reconnections with exponential backoff and closing, with the current instant passed in (no test waits
/// for time to pass).
@Suite("Connection supervisor")
struct ConnectionSupervisorTests {
    typealias Supervisor = ConnectionSupervisor

    /// Where a supervisor was brought, for the tests that run in each state.
    enum Reached: String, CaseIterable, Sendable {
        case starting, streaming, pinging, stalled, waitingToReconnect, reconnecting, stopped
    }

    static let options = PostgresStore.ListenerOptions(
        pingInterval: .seconds(5), pingTimeout: .seconds(2), reconnectBackoff: .milliseconds(50)...(.milliseconds(400)))
    static let stallReason = "a change is overdue"
    static let timeoutReason = "no answer"

    /// An arbitrary origin: the supervisor only compares instants it is given.
    let t0 = ContinuousClock.now

    static func supervisor() -> Supervisor {
        Supervisor(options: options, stallReason: stallReason, pingTimeoutReason: timeoutReason)
    }

    /// A supervisor connected at `t0`.
    func streaming() -> Supervisor {
        var supervisor = Self.supervisor()
        _ = supervisor.handle(.start, at: t0)
        _ = supervisor.handle(.connected, at: t0)
        return supervisor
    }

    /// A supervisor in `reached`, brought there at `t0`.
    func reach(_ reached: Reached) -> Supervisor {
        var supervisor = streaming()
        switch reached {
        case .starting: return Self.supervisor()
        case .streaming: break
        case .pinging: _ = supervisor.handle(.tick, at: t0 + .seconds(5))
        case .stalled: _ = supervisor.handle(.checkRequested, at: t0)
        case .waitingToReconnect: _ = supervisor.handle(.connectionLost("gone"), at: t0)
        case .reconnecting:
            _ = supervisor.handle(.connectionLost("gone"), at: t0)
            _ = supervisor.handle(.tick, at: t0 + .milliseconds(50))
        case .stopped: _ = supervisor.handle(.closeRequested, at: t0)
        }
        return supervisor
    }

    // MARK: - Starting

    @Test func theFirstConnectionStartsStreaming() {
        var supervisor = Self.supervisor()
        #expect(supervisor.state == .starting)
        #expect(supervisor.deadline == nil)
        #expect(supervisor.handle(.start, at: t0) == [.connect])
        #expect(supervisor.handle(.connected, at: t0) == [.started])
        #expect(supervisor.state == .streaming)
        #expect(supervisor.isConnected && !supervisor.awaitsPing)
        #expect(supervisor.deadline == t0 + .seconds(5))
        // Started once: later starts and connections outside an attempt change nothing.
        #expect(supervisor.handle(.start, at: t0 + .seconds(1)) == [])
        #expect(supervisor.handle(.connected, at: t0 + .seconds(1)) == [])
        #expect(supervisor.handle(.connectionFailed("late"), at: t0 + .seconds(1)) == [])
        #expect(supervisor.state == .streaming)
    }

    @Test func aFailedFirstConnectionStops() {
        var supervisor = Self.supervisor()
        _ = supervisor.handle(.start, at: t0)
        #expect(supervisor.handle(.connectionFailed("refused"), at: t0) == [.startFailed])
        #expect(supervisor.state == .stopped)
        #expect(supervisor.deadline == nil)
        #expect(supervisor.handle(.tick, at: t0 + .seconds(60)) == [])
        #expect(supervisor.handle(.closeRequested, at: t0 + .seconds(60)) == [])
    }

    // MARK: - Routine pings

    @Test func silencePingsAfterTheInterval() {
        var supervisor = streaming()
        #expect(supervisor.handle(.tick, at: t0 + .seconds(5) - .milliseconds(1)) == [])
        #expect(supervisor.state == .streaming)
        #expect(supervisor.handle(.tick, at: t0 + .seconds(5)) == [.ping])
        #expect(supervisor.state == .pinging(deadline: t0 + .seconds(7)))
        #expect(supervisor.awaitsPing)
        #expect(supervisor.deadline == t0 + .seconds(7))
    }

    @Test func activityPostponesThePing() {
        var supervisor = streaming()
        #expect(supervisor.handle(.activity, at: t0 + .seconds(3)) == [])
        #expect(supervisor.lastActivity == t0 + .seconds(3))
        #expect(supervisor.deadline == t0 + .seconds(8))
        #expect(supervisor.handle(.tick, at: t0 + .seconds(5)) == [])
        #expect(supervisor.state == .streaming)
    }

    @Test func anAnsweredPingStreamsSilently() {
        var supervisor = reach(.pinging)
        #expect(supervisor.handle(.pingAnswered, at: t0 + .seconds(6)) == [])
        #expect(supervisor.state == .streaming)
        #expect(!supervisor.awaitsPing)
        #expect(supervisor.deadline == t0 + .seconds(11))
    }

    /// A routine ping goes out at t0 + 5 s, a stall's at t0: each is given up `pingTimeout` later, and the first
    /// attempt to connect again waits the backoff's lower bound.
    @Test(arguments: [(Reached.pinging, Duration.seconds(7)), (.stalled, .seconds(2))])
    func anUnansweredPingReconnectsAfterTheLowerBound(_ reached: Reached, _ deadline: Duration) {
        var supervisor = reach(reached)
        #expect(supervisor.handle(.tick, at: t0 + deadline - .milliseconds(1)) == [])
        #expect(
            supervisor.handle(.tick, at: t0 + deadline) == [
                .disconnect(reason: Self.timeoutReason),
                .reportState(.reconnecting(attempt: 1, lastError: Self.timeoutReason))
            ])
        let retryAt = t0 + deadline + .milliseconds(50)
        #expect(
            supervisor.state
                == .waitingToReconnect(
                    attempt: 1, lastError: Self.timeoutReason, delay: .milliseconds(50), retryAt: retryAt))
        #expect(!supervisor.isConnected)
        #expect(supervisor.lastActivity == nil)
        #expect(supervisor.deadline == retryAt)
        #expect(supervisor.handle(.tick, at: retryAt - .milliseconds(1)) == [])
        #expect(supervisor.handle(.tick, at: retryAt) == [.connect])
        #expect(supervisor.state == .reconnecting(attempt: 1, lastError: Self.timeoutReason, delay: .milliseconds(50)))
        #expect(supervisor.deadline == nil)
        #expect(
            supervisor.handle(.connected, at: retryAt + .milliseconds(5)) == [
                .reconnected(attempts: 1), .reportState(.listening)
            ])
        #expect(supervisor.state == .streaming)
        #expect(supervisor.deadline == retryAt + .milliseconds(5) + .seconds(5))
    }

    @Test(arguments: [Reached.pinging, .stalled])
    func aFailedPingReconnects(_ reached: Reached) {
        var supervisor = reach(reached)
        #expect(
            supervisor.handle(.pingFailed("EOF"), at: t0 + .seconds(6)) == [
                .disconnect(reason: "ping failed: EOF"),
                .reportState(.reconnecting(attempt: 1, lastError: "ping failed: EOF"))
            ])
    }

    @Test func aPingAnswerOrFailureWithoutAPingOutIsIgnored() {
        var supervisor = streaming()
        #expect(supervisor.handle(.pingAnswered, at: t0 + .seconds(1)) == [])
        #expect(supervisor.handle(.pingFailed("?"), at: t0 + .seconds(1)) == [])
        #expect(supervisor.state == .streaming)
        #expect(supervisor.deadline == t0 + .seconds(5))
    }

    // MARK: - Stalls

    @Test func anOverdueChangeStallsUntilThePingIsAnswered() {
        var supervisor = streaming()
        #expect(
            supervisor.handle(.checkRequested, at: t0 + .seconds(1)) == [
                .reportState(.stalled(reason: Self.stallReason)), .ping
            ])
        #expect(supervisor.state == .stalled(reason: Self.stallReason, deadline: t0 + .seconds(3)))
        #expect(supervisor.awaitsPing && supervisor.isConnected)
        #expect(supervisor.deadline == t0 + .seconds(3))
        // A second check while the first is out changes nothing.
        #expect(supervisor.handle(.checkRequested, at: t0 + .seconds(2)) == [])
        #expect(supervisor.handle(.pingAnswered, at: t0 + .seconds(2)) == [.reportState(.listening)])
        #expect(supervisor.state == .streaming)
        #expect(supervisor.deadline == t0 + .seconds(7))
    }

    @Test func aCheckDuringARoutinePingStallsWithANewDeadline() {
        var supervisor = reach(.pinging)
        #expect(
            supervisor.handle(.checkRequested, at: t0 + .seconds(6)) == [
                .reportState(.stalled(reason: Self.stallReason)), .ping
            ])
        #expect(supervisor.state == .stalled(reason: Self.stallReason, deadline: t0 + .seconds(8)))
    }

    @Test(arguments: [Reached.starting, .waitingToReconnect, .reconnecting, .stopped])
    func withoutAConnectionItsEventsAreIgnored(_ reached: Reached) {
        var supervisor = reach(reached)
        let before = supervisor.state
        let events: [Supervisor.Event] = [
            .checkRequested, .activity, .pingAnswered, .pingFailed("x"), .connectionLost("x")
        ]
        for event in events { #expect(supervisor.handle(event, at: t0 + .milliseconds(10)) == []) }
        #expect(supervisor.state == before)
        #expect(supervisor.lastActivity == nil)
    }

    // MARK: - Backoff

    @Test func theBackoffDoublesUpToItsUpperBoundAndResetsAfterSuccess() {
        var supervisor = reach(.reconnecting)
        var now = t0 + .milliseconds(50)
        var waits: [Supervisor.State] = []
        for _ in 1...5 {
            _ = supervisor.handle(.connectionFailed("refused"), at: now)
            waits.append(supervisor.state)
            now = supervisor.deadline ?? now
            #expect(supervisor.handle(.tick, at: now) == [.connect])
        }
        var retryAt = t0 + .milliseconds(50)
        let expected = zip(2...6, [100, 200, 400, 400, 400]).map { attempt, milliseconds in
            retryAt += .milliseconds(milliseconds)
            return Supervisor.State.waitingToReconnect(
                attempt: attempt, lastError: "refused", delay: .milliseconds(milliseconds), retryAt: retryAt)
        }
        #expect(waits == expected)
        #expect(supervisor.handle(.connected, at: now) == [.reconnected(attempts: 6), .reportState(.listening)])
        // The next outage starts again from the lower bound.
        _ = supervisor.handle(.connectionLost("again"), at: now)
        #expect(
            supervisor.state
                == .waitingToReconnect(
                    attempt: 1, lastError: "again", delay: .milliseconds(50), retryAt: now + .milliseconds(50)))
    }

    @Test func writesStopWaitingAtTheFirstFailedAttemptOnly() {
        var supervisor = reach(.reconnecting)
        #expect(
            supervisor.handle(.connectionFailed("refused"), at: t0 + .milliseconds(50)) == [
                .completeAllWrites, .reportState(.reconnecting(attempt: 2, lastError: "refused"))
            ])
        _ = supervisor.handle(.tick, at: t0 + .milliseconds(150))
        #expect(
            supervisor.handle(.connectionFailed("refused"), at: t0 + .milliseconds(160)) == [
                .reportState(.reconnecting(attempt: 3, lastError: "refused"))
            ])
    }

    // MARK: - Closing

    @Test(arguments: Reached.allCases.filter { $0 != .stopped })
    func closeStopsFromEveryState(_ reached: Reached) {
        var supervisor = reach(reached)
        #expect(
            supervisor.handle(.closeRequested, at: t0 + .milliseconds(10)) == [
                .close, .reportState(.stopped), .completeAllWrites
            ])
        #expect(supervisor.state == .stopped)
        #expect(supervisor.deadline == nil)
        #expect(!supervisor.isConnected && !supervisor.awaitsPing)
        // Nothing more is scheduled, and nothing brings it back.
        let events: [Supervisor.Event] = [
            .tick, .closeRequested, .start, .connected, .connectionFailed("x"), .checkRequested, .pingAnswered,
            .connectionLost("x")
        ]
        for event in events { #expect(supervisor.handle(event, at: t0 + .seconds(3_600)) == []) }
        #expect(supervisor.state == .stopped)
        #expect(supervisor.deadline == nil)
    }

    // MARK: - Ticks

    @Test(arguments: [Reached.streaming, .pinging, .stalled, .waitingToReconnect])
    func aTickBeforeTheDeadlineDoesNothing(_ reached: Reached) throws {
        var supervisor = reach(reached)
        let before = supervisor.state
        let deadline = try #require(supervisor.deadline)
        #expect(supervisor.handle(.tick, at: deadline - .microseconds(1)) == [])
        #expect(supervisor.state == before)
        #expect(supervisor.deadline == deadline)
    }

    @Test(arguments: [Reached.starting, .reconnecting, .stopped])
    func aTickWithoutADeadlineDoesNothing(_ reached: Reached) {
        var supervisor = reach(reached)
        let before = supervisor.state
        #expect(supervisor.deadline == nil)
        #expect(supervisor.handle(.tick, at: t0 + .seconds(3_600)) == [])
        #expect(supervisor.state == before)
    }
}
