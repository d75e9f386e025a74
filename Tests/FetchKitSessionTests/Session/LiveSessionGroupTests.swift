import FetchKit
import FetchKitInMemory
import FetchKitSession
import Foundation
import Synchronization
import Testing

/// A group's shutdown: every session closes with 1001, none starts afterwards, a session whose scope is being
/// decided is cancelled and waited for, and a client that reads nothing holds the shutdown no longer than the grace
/// period.
@Suite("Live session group")
struct LiveSessionGroupTests {
    /// Runs a session of `group` for owner 1 on `socket` in the background.
    private func start(_ store: any PersistentStore, _ group: LiveSessionGroup, _ socket: TestSocket) -> Task<
        Void, Never
    > {
        var session = Board.session(store)
        session.sessions = group
        return Task { await session.run(scope: Board.scope(owner: 1), inbound: socket.inbound, transport: socket) }
    }

    @Test func shutdownClosesEverySessionWith1001AndNoneStartsAfterwards() async throws {
        let store = try await Board.store()
        let group = LiveSessionGroup()
        let sockets = [TestSocket(), TestSocket(), TestSocket()]
        let tasks = sockets.map { start(store, group, $0) }
        for socket in sockets {
            socket.receive(Board.open())
            try await socket.wait(for: "results") { $0.contains { $0.type == "results" } }
        }
        #expect(group.count == 3)
        #expect(await group.shutdown() == 0)
        for task in tasks { await task.value }
        #expect(sockets.allSatisfy { $0.closed?.code == .goingAway })
        #expect(group.count == 0)
        // A client that connects during the rest of the shutdown is told to come back, and gets nothing else.
        let late = TestSocket()
        late.receive(Board.open())
        await start(store, group, late).value
        #expect(late.closed?.code == .goingAway)
        #expect(late.sent.isEmpty)
        await store.close()
    }

    @Test func aClientThatReadsNothingHoldsTheShutdownOnlyForTheGracePeriod() async throws {
        let store = try await Board.store()
        let group = LiveSessionGroup(gracePeriod: .milliseconds(300))
        let socket = TestSocket()
        let task = start(store, group, socket)
        socket.receive(Board.open())
        try await socket.wait(for: "results") { $0.contains { $0.type == "results" } }
        socket.hold()
        // A batch the client does not read: the session's send, and so its close, waits behind it.
        try await store.write { tx in try tx.update("Card", key: 1, set: ["title": .text("unread")]) }
        try await socket.waitForAHeldSend()
        let started = ContinuousClock.now
        #expect(await group.shutdown() == 1)
        let waited = ContinuousClock.now - started
        #expect(waited >= .milliseconds(300), "returned after \(waited), before the grace period")
        #expect(socket.closed == nil)
        // Once the client reads again the close goes out and the session ends.
        socket.release()
        await task.value
        #expect(socket.closed?.code == .goingAway)
        #expect(group.count == 0)
        await store.close()
    }

    @Test func aShutdownCancelsAScopeBeingDecidedWaitsForItAndTheClientGets1001NotARefusal() async throws {
        let store = try await Board.store()
        let group = LiveSessionGroup()
        var session = Board.session(store)
        session.sessions = group
        let socket = TestSocket()
        let (deciding, decidingStarted) = AsyncStream.makeStream(of: Void.self)
        // What the lookup saw once its sleep ended: whether it was cancelled, and whether it still counted.
        let seen = Mutex<(cancelled: Bool, counted: Bool)?>(nil)
        let task = Task {
            await session.run(
                scope: {
                    decidingStarted.yield()
                    try? await Task.sleep(for: .seconds(60))  // a user lookup, cut short by the shutdown
                    seen.withLock { $0 = (Task.isCancelled, group.count == 1) }
                    throw CancellationError()
                }, inbound: socket.inbound, transport: socket)
        }
        for await _ in deciding { break }
        // Within the default grace period (10 s) only if the lookup was cancelled rather than waited out (60 s).
        #expect(await group.shutdown() == 0)
        #expect(seen.withLock { $0?.cancelled } == true, "the shutdown cancelled the lookup")
        #expect(seen.withLock { $0?.counted } == true, "the shutdown waited for the lookup to return")
        await task.value
        #expect(socket.closed?.code == .goingAway)
        #expect(socket.sent.isEmpty, "no refusal: \(socket.sentTexts)")
        await store.close()
    }
}
