import FetchKit
import Foundation
import LiveListModel
import Testing

/// The live board example in headless Chromium, on each framework's server and each backend: members of two teams
/// never see each other's cards whatever they put in the URL, a drag in one page appears in the other, a restart
/// shows "resyncing" and resumes without reloading, and a client that reads one message a second while the database
/// takes 1,000 writes a second leaves the server's memory flat. Every page ends equal to a fresh fetch, and no batch
/// failed to apply (the client refuses one whose counts do not match).
@Suite("The live board in a browser", .serialized)
struct BoardBrowserTests {
    @Test("Two teams never see each other's cards, whatever a page puts in its URL", arguments: BoardDatabase.Case.all)
    func teamsNeverMix(_ kind: BoardDatabase.Case) async throws {
        try await LiveBoard.with(kind) { board in
            let alice = try await board.page(signedInAs: "alice")
            let bob = try await board.page(signedInAs: "bob")
            try await board.waitUntil(alice, showsTeam: "acme", "after signing in")
            try await board.waitUntil(bob, showsTeam: "globex", "after signing in")

            // A filter on a key the server does not allow is refused; on an allowed key it narrows the team's cards.
            let prying = try await board.page(signedInAs: "bob", path: "/?filter=team%20%3D%3D%20'acme'")
            try await waitUntil("a filter on the team is refused") { try await prying.status() == "refused" }
            #expect(try await prying.view().isEmpty)
            let narrowed = try await board.page(signedInAs: "bob", path: "/?filter=title%20CONTAINS%20'e'")
            try await board.waitUntil(narrowed, showsTeam: "globex", filter: "title CONTAINS 'e'", "with a filter")

            // Nobody signed in: refused. Bob's own socket naming acme in its URL and its filter: refused or his.
            let stranger = try await board.page(signedInAs: nil)
            try await waitUntil("a page without sign-in is refused") { try await stranger.status() == "refused" }
            let opened = try await bob.page.evaluate(
                """
                Promise.all([
                    '{"v":1,"type":"open"}', '{"v":1,"type":"open","filter":"team == \\'acme\\'"}'
                ].map((open) => new Promise((resolve) => {
                    const socket = new WebSocket(`ws://${location.host}/cards?team=acme&name=alice&member=x`);
                    socket.onopen = () => socket.send(open);
                    socket.onmessage = (event) => { socket.close(); resolve(event.data); };
                }))).then((answers) => JSON.stringify(answers))
                """)
            let answers = try JSONDecoder().decode([String].self, from: Data((opened ?? "[]").utf8))
            let globex = try await board.database.expected(team: "globex").flatMap(\.cards).map(\.id)
            let first = try #require(answers.first.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) })
            let changeset = (first as? [String: Any])?["changeset"] as? [String: Any]
            let sections = (changeset?["sections"] as? [String: Any])?["inserted"] as? [[String: Any]]
            let keys = sections?.flatMap { ($0["objects"] as? [[String: Any]]) ?? [] }
                .compactMap { ($0["id"] as? NSNumber)?.int64Value }
            #expect(keys.map(Set.init) == Set(globex), "bob's own socket sends globex's cards only: \(answers[0])")
            #expect(answers.last?.contains(#""type":"refused""#) == true, "\(answers.last ?? "")")
            #expect(!answers.joined().contains("acme"))

            for page in [alice, bob, narrowed] { #expect(try await page.trace().errors.isEmpty) }
        }
    }

    @Test("A drag in one page appears in the other member's page", arguments: BoardDatabase.Case.all)
    func dragAppearsInTheOtherPage(_ kind: BoardDatabase.Case) async throws {
        try await LiveBoard.with(kind) { board in
            let alice = try await board.page(signedInAs: "alice")
            let carol = try await board.page(signedInAs: "carol")
            try await board.waitUntil(alice, showsTeam: "acme", "after signing in")
            try await board.waitUntil(carol, showsTeam: "acme", "after signing in")

            // Alice drags Backlog's first card to the end of Done, then Done's first card to the top of Backlog.
            let moved = try #require(try await alice.view().first { $0.name == "Backlog" }?.cards.first)
            try await alice.drag(card: moved.id, toEndOfLane: "Done")
            try await waitUntil("the server acknowledged the first move") {
                try await alice.trace().received["moved"] == 1
            }
            try await board.waitUntil(carol, showsTeam: "acme", "after alice's first drag")
            #expect(try await carol.view().first { $0.name == "Done" }?.cards.last == moved)
            let lifted = try #require(try await alice.view().first { $0.name == "Done" }?.cards.first)
            let top = try #require(try await alice.view().first { $0.name == "Backlog" }?.cards.first)
            try await alice.drag(card: lifted.id, onto: top.id)
            try await waitUntil("the server acknowledged the second move") {
                try await alice.trace().received["moved"] == 2
            }
            try await board.waitUntil(carol, showsTeam: "acme", "after alice's second drag")
            try await board.waitUntil(alice, showsTeam: "acme", "after her second drag")
            #expect(try await carol.view().first { $0.name == "Backlog" }?.cards.first == lifted)
            for page in [alice, carol] { #expect(try await page.trace().errors.isEmpty) }
        }
    }

    @Test("A restart shows resyncing, then the page resumes without reloading", arguments: BoardDatabase.Case.all)
    func restartResumes(_ kind: BoardDatabase.Case) async throws {
        try await LiveBoard.with(kind) { board in
            let alice = try await board.page(signedInAs: "alice")
            try await board.waitUntil(alice, showsTeam: "acme", "after signing in")
            let before = try await alice.trace()

            await board.server.stop()
            try await waitUntil("the page shows resyncing") { try await alice.status() == "resyncing" }
            // Meanwhile the database changes: another instance adds and edits cards.
            try await board.database.store.write { tx in
                try tx.insert(
                    Card(team: "acme", title: "Added while the server was down", lane: "Doing", position: 0.5))
                try tx.insert(Card(team: "globex", title: "Not for acme", lane: "Doing", position: 0.5))
            }
            try await board.server.start()
            try await board.waitUntil(alice, showsTeam: "acme", "after the restart")

            let after = try await alice.trace()
            #expect(after.loadedAt == before.loadedAt, "the page did not reload")
            #expect(after.received["results"] == 1, "the list was not sent again: \(after.received)")
            #expect(after.received["resumed"] == 1, "one batch brought the page up to date: \(after.received)")
            #expect(after.received["reset"] == nil)
            #expect(after.statuses.contains("resyncing"))
            #expect(after.errors.isEmpty, "\(after.errors)")
        }
    }

    #if Hummingbird
        @Test(
            "A client reading one message a second under 1,000 writes a second leaves the server's memory flat",
            arguments: BoardDatabase.Case.all)
        func slowClientKeepsMemoryFlat(_ kind: BoardDatabase.Case) async throws {
            try await LiveBoard.with(kind) { board in
                let alice = try await board.page(signedInAs: "alice")
                try await board.waitUntil(alice, showsTeam: "acme", "after signing in")
                let slow = SlowClient()
                slow.connect(
                    to: "ws://127.0.0.1:\(board.server.port)/cards",
                    cookie: try await board.database.cookie(of: "alice"))
                let writer = BoardWriter(store: board.database.store, team: "acme")
                let started = ContinuousClock.now
                let load = Task { try await writer.run(rate: 1_000, for: .seconds(23)) }

                // Three seconds to warm up (the first batches, the pools), then twenty measured.
                try await Task.sleep(for: .seconds(3))
                let baseline = try board.server.residentBytes()
                var peak = baseline
                for _ in 0..<40 {
                    try await Task.sleep(for: .milliseconds(500))
                    peak = max(peak, try board.server.residentBytes())
                }
                let writes = try await load.value
                let elapsed = Double((ContinuousClock.now - started).components.seconds)
                let growth = Double(peak - baseline) / 1_048_576
                let received = slow.messages
                print(
                    "slow client (\(kind.testDescription)): \(writes) writes in \(Int(elapsed)) s; server RSS "
                        + "\(baseline / 1_048_576) MB → peak +\(String(format: "%.1f", growth)) MB; "
                        + "the slow client read \(received) messages; its connection \(slow.ended ?? "stayed open")")
                #expect(writes >= 20_000, "the writer kept up 1,000 writes a second")
                #expect(growth < 8, "the server's resident memory grew by \(growth) MB under a slow client")
                // One message a read (a second each) however many writes: a loaded machine stretches the run.
                #expect(Double(received) <= elapsed + 10, "the slow client read about one message a second")

                // Caught up (resuming if the server closed it for lagging behind its pings), the slow client's list
                // and the page are the database's.
                let expected = try await board.database.expected(team: "acme")
                try await waitUntil("the slow client catches up", timeout: .seconds(60)) {
                    await slow.catchUp()
                    if let failure = slow.failure { throw BoardServer.Failure(description: failure) }
                    return slow.sections.map {
                        LaneView(name: $0.name, cards: $0.cards.map { .init(id: $0.id, title: $0.title) })
                    } == expected
                }
                #expect(slow.failure == nil, "\(slow.failure ?? "")")
                await slow.close()
                try await board.waitUntil(alice, showsTeam: "acme", "after the writes")
                #expect(try await alice.trace().errors.isEmpty)
            }
        }
    #endif
}
