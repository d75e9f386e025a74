import FetchKit
import FetchKitPostgres
import FetchKitSQLite
import FetchKitSession
import Foundation
import ServiceLifecycle

/// The example's data and its one live list: each team's cards, by lane, then by position.
public enum Board {
    /// Opens the store `url` names (`sqlite:board.sqlite`, `postgres://…`), its tables named with `prefix`,
    /// and puts two teams' boards in it when it has none.
    public static func open(url: String, tablePrefix prefix: String = "") async throws -> any PersistentStore & Service
    {
        var (card, member) = (Card.entity, Member.entity)
        (card.table, member.table) = (prefix + card.table, prefix + member.table)
        let schema = try Schema([card, member])
        let store: any PersistentStore & Service =
            url.hasPrefix("postgres")
            ? try await PostgresStore.open(url: url, schema: schema)
            : try await SQLiteStore.open(path: String(url.trimmingPrefix("sqlite:")), schema: schema)
        try await seedIfEmpty(store)
        return store
    }

    /// The list each page shows: its team's cards (the scope), by lane, then by position — the order a move
    /// writes — as ``CardView``s. A page may filter by title, lane and done, and presents resume tokens kept in
    /// `resume`.
    public static func cards(in store: any PersistentStore, resume: ResumeStore<Card>?) throws
        -> LiveResultsSession<Card, CardView>
    {
        LiveResultsSession(
            store: store,
            request: try FetchRequest<Card>(
                sortBy: [SortDescriptor(\.lane), SortDescriptor(\.position)], sectionBy: \.lane),
            policy: ClientQueryPolicy(filterable: ["title", "lane", "done"]), resume: resume, projection: CardView.init)
    }

    /// Two teams, three members (alice and carol in acme, bob in globex), and a few cards each.
    static func seedIfEmpty(_ store: any PersistentStore) async throws {
        guard try await store.count(FetchRequest<Member>()) == 0 else { return }
        let cards = [
            ("acme", "Backlog", "Sketch the settings page"), ("acme", "Backlog", "Profile the cold start"),
            ("acme", "Doing", "Review the sync protocol"), ("acme", "Done", "Set up CI"),
            ("globex", "Backlog", "Write the release notes"), ("globex", "Doing", "Fix the flaky login test"),
            ("globex", "Done", "Pick a database")
        ]
        try await store.write { tx in
            for (name, team) in [("alice", "acme"), ("carol", "acme"), ("bob", "globex")] {
                try tx.insert(Member(name: name, team: team, token: UUID().uuidString))
            }
            for (index, (team, lane, title)) in cards.enumerated() {
                try tx.insert(Card(team: team, title: title, lane: lane, position: Double(index)))
            }
        }
    }
}
