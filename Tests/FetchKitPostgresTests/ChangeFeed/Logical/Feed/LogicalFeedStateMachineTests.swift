import FetchKit
import Testing

@testable import FetchKitPostgres

/// The logical feed's decisions, without I/O: a committed transaction is published once, the log is acknowledged,
/// silence is pinged, a lost connection reconnects with a resync unless its slot resumed, and a transaction that
/// cannot be read becomes a resync at its commit.
@Suite("Logical feed state machine")
struct LogicalFeedStateMachineTests {
    typealias Machine = LogicalFeedStateMachine
    static let t0 = ContinuousClock.now
    static let options = PostgresStore.ListenerOptions(
        pingInterval: .seconds(5), pingTimeout: .seconds(2), reconnectBackoff: .milliseconds(50)...(.seconds(1)),
        // The publication and lag checks' own tests set them; here they would interleave with the pings.
        publicationCheckInterval: .seconds(30), lagCheckInterval: .seconds(30))
    static let card = LogTransactionAssemblerTests.card

    static func machine() -> Machine {
        Machine(
            options: options, assembler: LogTransactionAssembler(schemaName: "app", keyColumns: ["card": "id"]),
            statusInterval: .seconds(1))
    }

    /// A streaming machine, connected at `t0`.
    static func streaming() -> Machine {
        var machine = machine()
        #expect(machine.handle(.start, at: t0) == [.connect])
        #expect(machine.handle(.connected(resumed: false), at: t0) == [.started])
        return machine
    }

    static func at(_ milliseconds: Int) -> ContinuousClock.Instant { t0 + .milliseconds(milliseconds) }

    /// `message` as the stream's `'w'` message.
    static func data(_ message: PgOutputMessage, end: UInt64 = 0) -> [UInt8] {
        var encoder = PgOutputEncoder()
        encoder.ascii("w")
        encoder.position(LogPosition(value: end))
        encoder.position(LogPosition(value: end))
        encoder.int64(0)
        return encoder.bytes + PgOutputEncoder.encode(message)
    }

    static func keepalive(end: UInt64, reply: Bool = false) -> [UInt8] {
        var encoder = PgOutputEncoder()
        encoder.ascii("k")
        encoder.position(LogPosition(value: end))
        encoder.int64(0)
        encoder.byte(reply ? 1 : 0)
        return encoder.bytes
    }

    /// One transaction inserting card `id`, ending at `end`.
    static func transaction(_ xid: UInt32, id: Int64, end: UInt64) -> [[UInt8]] {
        [
            data(.relation(card)),
            data(.begin(finalPosition: LogPosition(value: end - 48), committedAt: 0, transactionID: xid)),
            data(
                .insert(
                    relation: 10, new: [LogTransactionAssemblerTests.id(id), LogTransactionAssemblerTests.title("t")])),
            data(.commit(position: LogPosition(value: end - 48), end: LogPosition(value: end), committedAt: 0))
        ]
    }

    static func published(_ actions: [Machine.Action]) -> [LogTransaction] {
        actions.compactMap { action in
            if case .publish(let transaction) = action { return transaction }
            return nil
        }
    }

    @Test func aCommittedTransactionIsPublishedOnceAndAcknowledged() {
        var machine = Self.streaming()
        let actions = machine.handle(.received(Self.transaction(700, id: 1, end: 1_000)), at: Self.at(10))
        let published = Self.published(actions)
        #expect(published.count == 1)
        #expect(published.first?.transactionID == 700)
        #expect(published.first?.tables["card"]?.inserted == [.integer(1)])
        #expect(actions.contains(.completeWrites(through: LogPosition(value: 1_000))))
        // Acknowledged once the status interval has passed since the last status (sent when it connected).
        #expect(!actions.contains { if case .sendStatus = $0 { true } else { false } })
        #expect(machine.deadline == Self.at(1_000))
        #expect(
            machine.handle(.tick, at: Self.at(1_000))
                == [
                    .sendStatus(
                        applied: LogPosition(value: 1_000), received: LogPosition(value: 1_000), replyRequested: false)
                ])
        // The same transaction again (a resumed slot sends from its confirmed position): skipped.
        #expect(
            Self.published(machine.handle(.received(Self.transaction(700, id: 1, end: 1_000)), at: Self.at(1_100)))
                .isEmpty)
    }

    @Test func theLogsEndWhileIdleIsHandedOnAndARequestedReplyIsSent() {
        var machine = Self.streaming()
        let actions = machine.handle(.received([Self.keepalive(end: 5_000, reply: true)]), at: Self.at(10))
        #expect(
            actions == [
                .sendStatus(
                    applied: LogPosition(value: 5_000), received: LogPosition(value: 5_000), replyRequested: false),
                .completeWrites(through: LogPosition(value: 5_000))
            ])
        // Inside a transaction the log's end is not handed on: its commit is still to come.
        var open = Self.streaming()
        let begun = Array(Self.transaction(701, id: 2, end: 9_000).prefix(3))
        _ = open.handle(.received(begun + [Self.keepalive(end: 8_000)]), at: Self.at(10))
        #expect(open.applied == .zero)
    }

    @Test func silenceIsPingedAndAnUnansweredPingReconnectsWithAResync() {
        var machine = Self.streaming()
        #expect(machine.deadline == Self.at(5_000))
        #expect(
            machine.handle(.tick, at: Self.at(5_000))
                == [.sendStatus(applied: .zero, received: .zero, replyRequested: true)])
        #expect(machine.state == .pinging(deadline: Self.at(7_000)))
        let lost = machine.handle(.tick, at: Self.at(7_000))
        #expect(lost.first == .disconnect(reason: "the server did not answer a status update within 2.0 seconds"))
        #expect(machine.deadline == Self.at(7_050))
        #expect(machine.handle(.tick, at: Self.at(7_050)) == [.connect])
        #expect(
            machine.handle(.connected(resumed: false), at: Self.at(7_060))
                == [.reconnected(attempts: 1), .publishResync, .completeAllWrites, .reportState(.listening)])
    }

    @Test func aServerAheadOfTheFeedIsABacklogUntilTheFeedReceivesIt() {
        var machine = Self.streaming()
        // The server's log was at 2,000 at 10 ms and at 3,000 at 20 ms; the feed has received nothing. A position
        // is a backlog once the feed has not received it for a whole check interval (30 s here), counted from the
        // last reading the feed had received (here the connection's start).
        #expect(machine.handle(.serverPosition(LogPosition(value: 2_000)), at: Self.at(10)) == [])
        #expect(machine.handle(.serverPosition(LogPosition(value: 3_000)), at: Self.at(20)) == [])
        #expect(
            machine.handle(.serverPosition(LogPosition(value: 3_000)), at: Self.at(30_010)) == [
                .reportBacklog(since: Self.t0)
            ])
        // The server says it has read through 2,500: behind since the first reading, which it has now.
        let partly = machine.handle(.received([Self.keepalive(end: 2_500)]), at: Self.at(30_030))
        #expect(partly.contains(.reportBacklog(since: Self.at(10))))
        // Through 3,000: caught up.
        let caughtUp = machine.handle(.received([Self.keepalive(end: 3_000)]), at: Self.at(30_040))
        #expect(caughtUp.contains(.reportBacklog(since: nil)))
        // A position the feed has received is no backlog.
        #expect(machine.handle(.serverPosition(LogPosition(value: 3_000)), at: Self.at(30_050)) == [])
    }

    @Test func theLagCheckReadsTheServerAndAsksForAReply() {
        var options = Self.options
        options.lagCheckInterval = .milliseconds(200)
        var machine = Machine(
            options: options, assembler: LogTransactionAssembler(schemaName: "app", keyColumns: ["card": "id"]),
            statusInterval: .seconds(1))
        _ = machine.handle(.start, at: Self.t0)
        _ = machine.handle(.connected(resumed: false), at: Self.t0)
        #expect(machine.deadline == Self.at(200))
        #expect(
            machine.handle(.tick, at: Self.at(200)) == [
                .readServerPosition, .sendStatus(applied: .zero, received: .zero, replyRequested: true)
            ])
        #expect(machine.deadline == Self.at(400))
    }

    @Test func aRepairedPublicationInterruptsDeliveryUntilItsResync() {
        var machine = Self.streaming()
        #expect(machine.handle(.publicationChecked(repaired: false), at: Self.at(10)) == [])
        // Found while streaming: the controllers leave `.live`, refetch, and are live again after the resync.
        #expect(
            machine.handle(.publicationChecked(repaired: true), at: Self.at(20)) == [
                .interruptDelivery("a table was missing from the publication"), .publishResync,
                .reportState(.listening)
            ])
        // Found while reconnecting: listening is reported once the connection is back, after its own resync.
        _ = machine.handle(.connectionLost("terminated"), at: Self.at(30))
        #expect(
            machine.handle(.publicationChecked(repaired: true), at: Self.at(40)) == [
                .interruptDelivery("a table was missing from the publication"), .publishResync
            ])
    }

    @Test func aResumedSlotNeedsNoResync() {
        var machine = Self.streaming()
        _ = machine.handle(.connectionLost("terminated"), at: Self.at(10))
        _ = machine.handle(.tick, at: Self.at(60))
        #expect(
            machine.handle(.connected(resumed: true), at: Self.at(70))
                == [.reconnected(attempts: 1), .reportState(.listening)])
    }

    @Test func anAnswerEndsAStall() {
        var machine = Self.streaming()
        let check = machine.handle(.checkRequested, at: Self.at(10))
        #expect(check.last == .sendStatus(applied: .zero, received: .zero, replyRequested: true))
        #expect(machine.handle(.received([Self.keepalive(end: 0)]), at: Self.at(20)).first == .reportState(.listening))
        #expect(machine.state == .streaming)
    }

    @Test func anUnreadableTransactionIsAResyncAtItsCommit() {
        var machine = Self.streaming()
        var messages = Self.transaction(702, id: 3, end: 2_000)
        // An insert into a relation the stream never described.
        messages.insert(Self.data(.insert(relation: 99, new: [])), at: 2)
        let actions = machine.handle(.received(messages), at: Self.at(10))
        #expect(Self.published(actions).isEmpty)
        #expect(actions.contains(.publishResync))
        #expect(
            actions.contains {
                if case .reportUnreadable(let reason) = $0 { reason.contains("relation 99") } else { false }
            })
        // The next transaction is read again.
        let next = machine.handle(.received(Self.transaction(703, id: 4, end: 3_000)), at: Self.at(20))
        #expect(Self.published(next).map(\.transactionID) == [703])
    }

    @Test func aFailedFirstConnectionEndsTheFeedAndCloseStopsIt() {
        var failing = Self.machine()
        _ = failing.handle(.start, at: Self.t0)
        #expect(failing.handle(.connectionFailed("no"), at: Self.t0) == [.startFailed])
        var machine = Self.streaming()
        #expect(
            machine.handle(.closeRequested, at: Self.at(10)) == [.close, .reportState(.stopped), .completeAllWrites])
        #expect(machine.handle(.closeRequested, at: Self.at(20)).isEmpty)
    }
}

/// A snapshot's text says which committed transactions other sessions see, across an epoch's wrap too.
@Suite("Server snapshots")
struct ServerSnapshotTests {
    @Test func aSnapshotSeesEndedTransactionsOnly() throws {
        let snapshot = try #require(ServerSnapshot("100:105:101,103"))
        #expect(snapshot.sees(99))
        #expect(snapshot.sees(100))
        #expect(!snapshot.sees(101))
        #expect(snapshot.sees(102))
        #expect(!snapshot.sees(103))
        #expect(snapshot.sees(104))
        #expect(ServerSnapshot("100:105:") == ServerSnapshot("100:105:"))
        #expect(ServerSnapshot("1:2") == nil)
        #expect(ServerSnapshot("a:2:") == nil)
    }

    @Test func theEpochIsThatOfTheTransactionsJustBelowXmax() throws {
        // xmax 2^32 + 5 (epoch 1): 32-bit ID 4,294,967,290 is epoch 0's, still running; 3 is epoch 1's.
        let wrapped = try #require(ServerSnapshot("4294967290:4294967301:4294967290"))
        #expect(!wrapped.sees(4_294_967_290))
        #expect(wrapped.sees(3))
        #expect(wrapped.sees(4_294_967_291))
    }
}
