import FetchKit
import FetchKitSQLite
import FetchKitTesting
import Foundation
import Logging
import Synchronization
import Testing

@testable import LiveList

/// The session without a browser: a client that applies every message with FetchKit's Swift client
/// (`WireList`) while it sends moves, adds, toggles and deletes, and another writer changes the same rows
/// without pause. Every message must apply to what the client holds, and at the end the client must equal a
/// fresh fetch.
@Suite("Live board session")
struct ListSessionTests {
    /// A card as the page receives it: the wire format, decoded independently of the server's `Card`.
    struct ReceivedCard: Decodable, Sendable, Equatable {
        var id: Int64
        var title: String
        var lane: String
        var position: Double
        var done: Bool
    }

    private struct Message: Decodable {
        var type: String
        var changeset: WireChangeset<ReceivedCard>?
        var error: String?
    }

    /// The client, shared between the session's sends and the test.
    private final class ClientBox: Sendable {
        let state = Mutex(Client())
    }

    /// What the client has received, applied.
    private struct Client: Sendable {
        var list = WireList<ReceivedCard>()
        var results = 0
        var batches = 0
        var moved = 0
        var failedMoves: [String] = []
        var errors: [String] = []
        var mismatches: [String] = []

        mutating func receive(_ text: String) throws {
            let message = try JSONDecoder().decode(Message.self, from: Data(text.utf8))
            switch message.type {
            case "results":
                results += 1
                list = WireList()
                try apply(message.changeset)
            case "batch":
                batches += 1
                try apply(message.changeset)
            case "moved":
                moved += 1
                if let error = message.error { failedMoves.append(error) }
            default:
                errors.append(message.error ?? text)
            }
        }

        private mutating func apply(_ changeset: WireChangeset<ReceivedCard>?) throws {
            guard let changeset else { throw ConformanceFailure("a changeset message without a changeset") }
            do {
                try list.apply(changeset)
            } catch {
                mismatches.append("\(error)")
            }
        }
    }

    @Test(
        "Moves, adds, toggles and deletes racing another writer: every message applies, the end is exact",
        .timeLimit(.minutes(2)))
    func racingWriters() async throws {
        let (store, session, client, commandSink, serving) = try await startSession()

        var random = SeededRandom(seed: 42)
        var movesSent = 0
        for step in 0..<300 {
            let cards = client.state.withLock { $0.list.sections.map { ($0.name, $0.objects.map(\.id)) } }
            let keys = cards.flatMap(\.1)
            let operation = random.int(0..<6)
            switch operation {
            case 0...1 where keys.count >= 2:
                // A drop named by the client's neighbour, or at the end of a lane, as the page sends it.
                let key = keys[random.int(0..<keys.count)]
                let (lane, lanekeys) = cards[random.int(0..<cards.count)]
                let others = lanekeys.filter { $0 != key }
                let place = random.int(0...others.count)
                let destination = place < others.count ? #""before":\#(others[place])"# : #""section":"\#(lane)""#
                commandSink.yield(#"{"type":"move","key":\#(key),\#(destination)}"#)
                movesSent += 1
            case 2:
                commandSink.yield(
                    #"{"type":"add","title":"Added \#(step)","lane":"\#(Board.lanes[random.int(0..<3)])"}"#)
            case 3 where !keys.isEmpty:
                commandSink.yield(#"{"type":"toggle","key":\#(keys[random.int(0..<keys.count)])}"#)
            default:
                // Another writer: a card changes lane and place, or one is inserted or deleted.
                let lane = Board.lanes[random.int(0..<3)]
                let position = Double(random.int(0..<1_000)) / 10
                let key = keys.isEmpty ? 0 : keys[random.int(0..<keys.count)]
                let kind = random.int(0..<3)
                try await store.write { tx in
                    switch kind {
                    case 0 where key != 0:
                        try tx.update(
                            "Card", key: .integer(key), set: ["lane": .text(lane), "position": .double(position)])
                    case 1 where key != 0 && keys.count > 4:
                        try tx.delete("Card", key: .integer(key))
                    default:
                        _ = try tx.insert(
                            ["title": .text("Written \(step)"), "lane": .text(lane), "position": .double(position)],
                            into: "Card")
                    }
                }
            }
            if step % 25 == 24 { try await Task.sleep(for: .milliseconds(20)) }
        }

        // Commands run in order: once a last (empty) move is answered, every command before it has run. Then
        // the controller has applied every write, and the client must hold exactly a fresh fetch.
        let anyKey = client.state.withLock { $0.list.sections.first?.objects.first?.id } ?? 1
        commandSink.yield(#"{"type":"move","key":\#(anyKey),"before":\#(anyKey)}"#)
        movesSent += 1
        try await waitUntil("every move is answered") { client.state.withLock { $0.moved } == movesSent }
        await session.controller.sync()
        let fresh = try await store.fetch(Board.request()).map { card in
            ReceivedCard(
                id: card.id ?? -1, title: card.title, lane: card.lane, position: card.position, done: card.done)
        }
        do {
            try await waitUntil("the client equals a fresh fetch") {
                client.state.withLock { $0.list.sections.flatMap(\.objects) } == fresh
            }
        } catch {
            let state = client.state.withLock { $0 }
            throw ConformanceFailure(
                "\(error): the client has \(state.list.sections.flatMap(\.objects).map(\.id)), a fresh fetch "
                    + "\(fresh.map(\.id)); mismatches \(state.mismatches), errors \(state.errors)")
        }
        commandSink.finish()
        try await serving.value
        let final = client.state.withLock { $0 }
        #expect(final.mismatches.isEmpty, "messages that did not apply: \(final.mismatches)")
        #expect(final.results == 1 && final.batches > 50, "\(final.results) results, \(final.batches) batches")
        // A move can fail only because its card or neighbour left meanwhile; then nothing was written.
        #expect(
            final.failedMoves.allSatisfy { $0.contains("not in the results") || $0.contains("no such section") },
            "moves that failed otherwise: \(final.failedMoves)")
        try await ResultsOracle.checkMatchesFreshFetch(session.controller, in: store)
        await store.close()
    }

    @Test(
        "A move that empties a lane: the lane's deletion reaches the client after the move, never before",
        .timeLimit(.minutes(2)))
    func movesThatEmptyALane() async throws {
        let (store, session, client, commandSink, serving) = try await startSession()
        for round in 1...25 {
            // A lane of one card appears; the client drags the card to the end of Backlog, emptying the lane:
            // the controller publishes the lane's deletion as the move's only batch.
            let lane = "Solo \(round)"
            let key = try await store.write { tx in
                try tx.insert(["title": .text("Alone \(round)"), "lane": .text(lane), "position": 0.0], into: "Card")
            }
            try await waitUntil("lane \(lane) is shown") {
                client.state.withLock { $0.list.sections.contains { $0.name == lane } }
            }
            commandSink.yield(#"{"type":"move","key":\#(key),"section":"Backlog"}"#)
            try await waitUntil("move \(round) is answered") { client.state.withLock { $0.moved } == round }
            let state = client.state.withLock { $0 }
            #expect(
                state.mismatches.isEmpty && state.failedMoves.isEmpty,
                "round \(round): \(state.mismatches) \(state.failedMoves)")
            #expect(!state.list.sections.contains { $0.name == lane }, "round \(round): lane \(lane) is still shown")
            #expect(
                state.list.sections.first { $0.name == "Backlog" }?.objects.last.map { Value.integer($0.id) } == key,
                "round \(round): card \(key) should end Backlog")
        }
        commandSink.finish()
        try await serving.value
        try await ResultsOracle.checkMatchesFreshFetch(session.controller, in: store)
        await store.close()
    }

    @Test("A card reaches the page as the row that stores it would: the same JSON")
    func cardsTravelAsTheirRows() async throws {
        let store = try await SQLiteStore.inMemory(schema: try Board.schema())
        try await Board.seedIfEmpty(store)
        try await store.write { tx in
            try tx.insert(Card(title: "Ticked \u{1F389}", lane: "Done", position: 7.5, done: true))
        }
        let request = try Board.request()
        let cards = ResultsController(store: store, request: request)
        let rows = ResultsController(store: store, request: FetchRequest<Row>(request.erased))
        try await cards.performFetch()
        try await rows.performFetch()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let sent = String(decoding: try encoder.encode(WireChangeset(inserting: cards.snapshot)), as: UTF8.self)
        let asRows = String(decoding: try encoder.encode(WireChangeset(inserting: rows.snapshot)), as: UTF8.self)
        #expect(sent == asRows)
        #expect(sent.contains(#"{"done":true,"id":8,"lane":"Done","position":7.5,"title":"Ticked 🎉"}"#), "\(sent)")
        await store.close()
    }

    /// A seeded in-memory board, a session over it, and a client receiving its messages once the results
    /// arrived; commands go into the continuation, and the task ends when it finishes.
    private func startSession() async throws -> (
        SQLiteStore, ListSession, ClientBox, AsyncStream<String>.Continuation, Task<Void, any Error>
    ) {
        let store = try await SQLiteStore.inMemory(schema: try Board.schema())
        try await Board.seedIfEmpty(store)
        let session = ListSession(store: store, request: try Board.request(), logger: Logger(label: "session-test"))
        let client = ClientBox()
        let (commands, commandSink) = AsyncStream.makeStream(of: String.self)
        let serving = Task {
            try await session.run(commands: commands) { text in
                try client.state.withLock { try $0.receive(text) }
            }
        }
        try await waitUntil("the results arrive") { client.state.withLock { $0.results } == 1 }
        return (store, session, client, commandSink, serving)
    }

    /// Waits as the session tests do: up to 30 s, looking every 10 ms.
    private func waitUntil(_ what: String, _ condition: () async throws -> Bool) async throws {
        try await LiveListTests.waitUntil(what, timeout: .seconds(30), interval: .milliseconds(10), condition)
    }
}
