import FetchKit
import Foundation

/// The example's data: cards on a board, in lanes, ordered within a lane by a fractional position.
public enum Board {
    /// The schema of a board whose cards are stored in `table`.
    public static func schema(table: String = "card") throws -> Schema {
        var card = Card.entity
        card.table = table
        return try Schema([card])
    }

    /// What a page shows: the cards by lane, then by position — the order `moveObject` writes — narrowed by
    /// the page's predicate.
    public static func request(where predicate: FetchPredicate = .true) throws -> FetchRequest<Card> {
        var request = try FetchRequest<Card>(
            sortBy: [SortDescriptor(\.lane), SortDescriptor(\.position)], sectionBy: \.lane)
        request.predicate = predicate
        return request
    }

    /// The lanes a new card can go to.
    public static let lanes = ["Backlog", "Doing", "Done"]

    /// Puts a few cards on the board when it has none.
    public static func seedIfEmpty(_ store: any PersistentStore) async throws {
        guard try await store.count(FetchRequest<Card>()) == 0 else { return }
        let cards: [(String, String)] = [
            ("Backlog", "Sketch the settings page"), ("Backlog", "Write the release notes"),
            ("Backlog", "Profile the cold start"), ("Doing", "Review the sync protocol"),
            ("Doing", "Fix the flaky login test"), ("Done", "Set up CI"), ("Done", "Pick a database")
        ]
        try await store.write { tx in
            for (index, (lane, title)) in cards.enumerated() {
                try tx.insert(Card(title: title, lane: lane, position: Double(index)))
            }
        }
    }
}
