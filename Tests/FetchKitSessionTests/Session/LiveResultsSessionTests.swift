import FetchKit
import FetchKitBackendKit
import FetchKitInMemory
import FetchKitSession
import Foundation
import Testing

/// The session core over the in-memory store and a socket the test holds: what a client receives is what a
/// fresh fetch of its scoped request finds, whatever it sends.
@Suite("Live results session")
struct LiveResultsSessionTests {
    /// Runs a session for `owner` on `socket` in the background.
    private func start(
        _ session: LiveResultsSession<Row, CardView>, owner: Int64, _ socket: TestSocket
    ) -> Task<Void, Never> {
        Task { await session.run(scope: Board.scope(owner: owner), inbound: socket.inbound, transport: socket) }
    }

    @Test func theClientReceivesItsScopedListThenEveryChangeInItsScope() async throws {
        let store = try await Board.store()
        let socket = TestSocket()
        let task = start(Board.session(store), owner: 1, socket)
        socket.receive(Board.open())
        try await socket.wait(for: "results") { $0.contains { $0.type == "results" } }
        try await store.write { tx in
            try tx.update("Card", key: 1, set: ["lane": "Done", "position": 0.5])  // owner 1
            try tx.update("Card", key: 2, set: ["title": "not yours"])  // owner 2: no batch
        }
        try await store.write { tx in
            _ = try tx.insert(
                ["id": 40, "owner": 1, "lane": "Doing", "title": "new", "position": 2.5], into: "Card")
        }
        let expected = try await Board.fresh(store, owner: 1)
        try await socket.wait(for: "the writes") { (try? Board.ids(Board.list(from: $0))) == expected }
        let sent = socket.sent
        #expect(sent.allSatisfy { $0.v == 1 })
        // One batch per write in scope, or one for both when the second arrived while the first was being sent.
        #expect((1...2).contains(sent.filter { $0.type == "batch" }.count))
        #expect(
            !sent.contains { $0.changeset?.sectionInserts.contains { $0.objects.contains { $0.id % 2 == 0 } } == true })
        socket.disconnect()
        await task.value
    }

    @Test func theClientsFilterAndSortNarrowTheScopeNeverWidenIt() async throws {
        let store = try await Board.store()
        let socket = TestSocket()
        let task = start(Board.session(store), owner: 2, socket)
        // Tries to read owner 1's rows through an OR: the scope is AND-ed around the whole filter.
        socket.receive(Board.open(filter: "title BEGINSWITH 'card' OR lane == 'Done'", sort: [("title", false)]))
        try await socket.wait(for: "results") { $0.contains { $0.type == "results" } }
        let list = try Board.list(from: socket.sent)
        let filter = try FetchPredicate(format: "title BEGINSWITH 'card' OR lane == 'Done'")
        let expected = try await Board.fresh(
            store, owner: 2, filter: filter, sort: [.ascending("lane"), .descending("title"), .ascending("position")])
        #expect(Board.ids(list) == expected)
        #expect(list.sections.flatMap(\.objects).allSatisfy { $0.id % 2 == 0 })
        socket.disconnect()
        await task.value
    }

    @Test(arguments: [
        (Board.open(filter: "owner == 1"), "forbidden"),
        (Board.open(filter: "title MATCHES '.*'"), "invalid"),
        (Board.open(filter: "title == $T"), "invalid"),
        (Board.open(filter: "SUBQUERY(title, $x, $x == 'a').@count > 0"), "invalid"),
        (Board.open(filter: "title =="), "invalid"),
        (Board.open(sort: [("owner", true)]), "forbidden"),
        (#"{"v": 2, "type": "open"}"#, "invalid"),
        (#"{"v": 1, "type": "move", "id": 1, "key": 1, "section": "Done"}"#, "invalid"),
        ("not json", "invalid")
    ])
    func aClientThatAsksForWhatItMayNotIsRefusedAndClosedWith1008(open: String, code: String) async throws {
        let store = try await Board.store()
        let socket = TestSocket()
        let task = start(Board.session(store), owner: 1, socket)
        socket.receive(open)
        await task.value
        let sent = socket.sent
        #expect(sent.map(\.type).filter { $0 != "status" } == ["refused"])
        #expect(sent.first?.error?.code == code, "\(open): \(String(describing: sent.first?.error))")
        #expect(socket.closed?.code == .policyViolation)
    }

    @Test func aBadMessageAfterOpenIsAnsweredAndTheSessionGoesOn() async throws {
        let store = try await Board.store()
        let socket = TestSocket()
        let task = start(Board.session(store), owner: 1, socket)
        socket.receive(Board.open())
        socket.receive("{]")
        socket.receive(Board.open())
        socket.receive(#"{"v": 1, "type": "move", "id": 3, "key": 999, "section": "Done"}"#)
        try await socket.wait(for: "three answers") { sent in
            sent.filter { $0.type == "error" }.count == 2 && sent.contains { $0.type == "moved" }
        }
        let moved = try #require(socket.sent.first { $0.type == "moved" })
        #expect(moved.id == 3 && moved.error?.code == "invalid")
        #expect(socket.closed == nil)
        socket.disconnect()
        await task.value
    }

    @Test func aMoveIsAcknowledgedAfterTheBatchThatShowsIt() async throws {
        let store = try await Board.store()
        let socket = TestSocket()
        let task = start(Board.session(store), owner: 1, socket)
        socket.receive(Board.open())
        try await socket.wait(for: "results") { $0.contains { $0.type == "results" } }
        let before = Board.ids(try Board.list(from: socket.sent))
        // Card 1 (Doing) to the top of Backlog, just above its first card.
        let target = try #require(before.first?.first)
        socket.receive(#"{"v": 1, "type": "move", "id": 9, "key": 1, "before": \#(target)}"#)
        try await socket.wait(for: "the ack") { $0.contains { $0.type == "moved" } }
        let sent = socket.sent
        let ack = try #require(sent.firstIndex { $0.type == "moved" })
        #expect(sent[ack].id == 9 && sent[ack].error == nil)
        let shown = Board.ids(try Board.list(from: Array(sent[..<ack])))
        #expect(shown.first?.first == 1, "the batch before the ack shows the move: \(shown)")
        let expected = try await Board.fresh(store, owner: 1)
        try await socket.wait(for: "settled") { (try? Board.ids(Board.list(from: $0))) == expected }
        socket.disconnect()
        await task.value
    }

    @Test func aClientThatDoesNotReadGetsFewerLargerBatchesAndEndsExact() async throws {
        let store = try await Board.store()
        let socket = TestSocket()
        var session = Board.session(store)
        session.bufferingLimit = 4
        let task = start(session, owner: 1, socket)
        socket.receive(Board.open())
        try await socket.wait(for: "results") { $0.contains { $0.type == "results" } }
        socket.hold()
        for round in 0..<300 {
            try await store.write { tx in
                try tx.update(
                    "Card", key: 1, set: ["title": .text("round \(round)"), "position": .double(Double(round % 7))])
            }
        }
        socket.release()
        let expected = try await Board.fresh(store, owner: 1)
        try await socket.wait(for: "the last round") { sent in
            (try? Board.list(from: sent))?.sections.flatMap(\.objects).contains { $0.title == "round 299" } == true
        }
        let sent = socket.sent
        #expect(Board.ids(try Board.list(from: sent)) == expected)
        let batches = sent.filter { $0.type == "batch" }.count
        #expect(batches < 30, "300 writes to a client that did not read became \(batches) batches")
        socket.disconnect()
        await task.value
    }

    @Test func aStatusChangeReachesTheClient() async throws {
        let store = try await Board.store()
        let socket = TestSocket()
        let task = start(Board.session(store), owner: 1, socket)
        socket.receive(Board.open())
        try await socket.wait(for: "results") { $0.contains { $0.type == "results" } }
        store.changeFeed.publishDelivery(.interrupted(FetchKitError(.connectionLost, message: "the feed reconnects")))
        try await socket.wait(for: "resyncing") { $0.contains { $0.status == "resyncing" } }
        store.changeFeed.publishResync()
        store.changeFeed.publishDelivery(.streaming)
        try await socket.wait(for: "live") { $0.last?.status == "live" }
        socket.disconnect()
        await task.value
    }

    @Test func theStoreClosingEndsTheSessionWith1000AndAnUnavailableError() async throws {
        let store = try await Board.store()
        let socket = TestSocket()
        let task = start(Board.session(store), owner: 1, socket)
        socket.receive(Board.open())
        try await socket.wait(for: "results") { $0.contains { $0.type == "results" } }
        await store.close()
        await task.value
        #expect(socket.listSent.last?.type == "error")
        #expect(socket.listSent.last?.error?.code == "unavailable")
        #expect(socket.closed?.code == .normal)
    }

    @Test func cancellingTheSessionClosesWith1001() async throws {
        let store = try await Board.store()
        let socket = TestSocket()
        let task = start(Board.session(store), owner: 1, socket)
        socket.receive(Board.open())
        try await socket.wait(for: "results") { $0.contains { $0.type == "results" } }
        task.cancel()
        await task.value
        #expect(socket.closed?.code == .goingAway)
    }

    @Test func cancellingTheSessionWhileItsScopeIsDecidedClosesWith1001NotARefusal() async throws {
        let store = try await Board.store()
        let socket = TestSocket()
        let session = Board.session(store)
        let (deciding, decidingStarted) = AsyncStream.makeStream(of: Void.self)
        let task = Task {
            await session.run(
                scope: {
                    decidingStarted.yield()
                    try await Task.sleep(for: .seconds(60))  // a user lookup, cut short by the cancellation
                    return Board.scope(owner: 1)
                }, inbound: socket.inbound, transport: socket)
        }
        for await _ in deciding { break }
        task.cancel()
        await task.value
        #expect(socket.sent.isEmpty, "no refusal: \(socket.sentTexts)")
        #expect(socket.closed?.code == .goingAway)
    }
}
