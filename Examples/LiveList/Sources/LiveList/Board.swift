import FetchKit

/// The example's data: cards on a board, in lanes, ordered within a lane by a fractional position.
public enum Board {
    /// The `Card` entity, stored in `table`: a title, its lane (the section), its position, whether it is done.
    public static func card(table: String = "card") -> Entity {
        Entity(
            "Card", table: table, primaryKey: .integer("id"),
            attributes: [
                Attribute("title", .text),
                Attribute("lane", .text, indexed: true),
                Attribute("position", .double, indexed: true),
                Attribute("done", .bool, default: false)
            ])
    }

    /// The schema of a board stored in `table`.
    public static func schema(table: String = "card") throws -> Schema {
        try Schema([card(table: table)])
    }

    /// What a page shows: the cards by lane, then by position — the order `moveObject` writes — narrowed by
    /// the page's predicate.
    public static func request(where predicate: FetchPredicate = .true) -> FetchRequest<Row> {
        FetchRequest(
            entity: "Card", predicate: predicate,
            sortDescriptors: [.ascending("lane"), .ascending("position")], sectionNameKeyPath: "lane")
    }

    /// The lanes a new card can go to.
    public static let lanes = ["Backlog", "Doing", "Done"]

    /// Puts a few cards on the board when it has none.
    public static func seedIfEmpty(_ store: any PersistentStore) async throws {
        guard try await store.count(FetchRequest(entity: "Card")) == 0 else { return }
        let cards: [(String, String)] = [
            ("Backlog", "Sketch the settings page"), ("Backlog", "Write the release notes"),
            ("Backlog", "Profile the cold start"), ("Doing", "Review the sync protocol"),
            ("Doing", "Fix the flaky login test"), ("Done", "Set up CI"), ("Done", "Pick a database")
        ]
        try await store.write { tx in
            for (index, (lane, title)) in cards.enumerated() {
                _ = try tx.insert(
                    ["title": .text(title), "lane": .text(lane), "position": .double(Double(index))], into: "Card")
            }
        }
    }
}
