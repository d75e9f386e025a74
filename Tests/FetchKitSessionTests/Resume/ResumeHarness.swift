import FetchKit
import FetchKitInMemory
import FetchKitSession
import FetchKitTesting
import Testing

/// What the resume tests share: a client that connects and waits for its list, the writes made while it is
/// away, and the oracle its resumed list is checked against.
extension Board {
    /// A client of `owner` that opens with `open`, once it has its list (`results` or `resumed`).
    static func connect(
        _ session: LiveResultsSession<Row, CardView>, owner: Int64, open: String
    ) async throws -> (TestSocket, Task<Void, Never>) {
        let socket = TestSocket()
        let task = Task {
            await session.run(scope: Board.scope(owner: owner), inbound: socket.inbound, transport: socket)
        }
        socket.receive(open)
        try await socket.wait(for: "the list") { $0.contains { ["results", "resumed"].contains($0.type) } }
        return (socket, task)
    }

    /// What a client of `owner` that opens with `open` receives up to its list, once it has left again.
    static func visit(
        _ session: LiveResultsSession<Row, CardView>, owner: Int64, open: String
    ) async throws -> TestSocket {
        let (socket, task) = try await connect(session, owner: owner, open: open)
        socket.disconnect()
        await task.value
        return socket
    }

    /// A client of owner 1 that receives its list and the batches of rounds 0..<5 of ``write(_:rounds:)``, then
    /// leaves: the list it holds and its last token.
    static func visit(
        _ session: LiveResultsSession<Row, CardView>, _ store: InMemoryStore
    ) async throws -> (held: WireList<CardView>, token: String) {
        let (socket, task) = try await connect(session, owner: 1, open: open())
        try await write(store, rounds: 0..<5)
        let expected = try await fresh(store, owner: 1)
        try await socket.wait(for: "the writes") { (try? ids(list(from: $0))) == expected }
        let held = try list(from: socket.sent)
        let token = try #require(socket.listSent.last { $0.token != nil }?.token)
        socket.disconnect()
        await task.value
        return (held, token)
    }

    /// One transaction a round: card 3 renamed; every tenth round a card of owner 1 added in "Doing".
    static func write(_ store: InMemoryStore, rounds: Range<Int>) async throws {
        for round in rounds {
            try await store.write { tx in
                try tx.update("Card", key: 3, set: ["title": .text("round \(round)")])
                if round % 10 == 0 {
                    _ = try tx.insert(
                        [
                            "id": .integer(Int64(100 + round)), "owner": 1, "lane": "Doing", "title": "added",
                            "position": .double(Double(round))
                        ], into: "Card")
                }
            }
        }
    }

    /// The cards `owner` sees now, in their lanes, as a fresh fetch of the narrowed request finds them.
    static func freshCards(_ store: any PersistentStore, owner: Int64) async throws -> [(
        section: String, rows: [CardView]
    )] {
        var request = Self.request
        request.predicate = scope(owner: owner)
        var lanes: [(section: String, rows: [CardView])] = []
        for row in try await store.fetch(request) {
            let card = CardView(
                id: row["id", as: Int64.self] ?? 0, title: row["title", as: String.self] ?? "",
                lane: row["lane", as: String.self] ?? "")
            if lanes.last?.section == card.lane {
                lanes[lanes.count - 1].rows.append(card)
            } else {
                lanes.append((card.lane, [card]))
            }
        }
        return lanes
    }

    /// A client's list as sections of cards.
    static func cards(_ list: WireList<CardView>) -> [(section: String, rows: [CardView])] {
        list.sections.map { ($0.name, $0.objects) }
    }

    /// Checks that `changeset` takes `held` to `expected` under UITableView's rules (``ListSimulator``), and
    /// that the client's list, once it applied it, is `expected`.
    static func expectApplies(
        _ changeset: WireChangeset<CardView>, to held: WireList<CardView>,
        giving expected: [(section: String, rows: [CardView])], sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        _ = try ListSimulator.apply(Changeset(changeset), to: cards(held), expecting: expected, identifiedBy: \.id)
        var list = held
        try list.apply(changeset)
        #expect(
            cards(list).map(\.section) == expected.map(\.section) && cards(list).map(\.rows) == expected.map(\.rows),
            sourceLocation: sourceLocation)
    }
}

extension Changeset {
    /// The changeset a wire changeset carries (an updated move is one whose object came along).
    init<Object>(_ wire: WireChangeset<Object>) {
        self.init(
            sectionDeletes: wire.sectionDeletes, sectionInserts: wire.sectionInserts.map(\.index),
            sectionMoves: wire.sectionMoves, rowDeletes: wire.rowDeletes, rowInserts: wire.rowInserts.map(\.at),
            rowMoves: wire.rowMoves.map { .init(from: $0.from, to: $0.to, isUpdated: $0.object != nil) },
            rowUpdates: wire.rowUpdates.map { .init(from: $0.from, to: $0.to) },
            sectionCountsBefore: wire.sectionCountsBefore, sectionCountsAfter: wire.sectionCountsAfter)
    }
}
