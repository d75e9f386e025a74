import FetchKitMacros

/// A card on a team's board: a title, its lane (the section), its place in the lane, whether it is done.
@Entity(table: "card")
public struct Card: Equatable {
    @PrimaryKey public var id: Int64?
    /// The team whose board holds it: the scope, never sent to a page.
    @Attribute(indexed: true) public var team: String
    public var title: String
    @Attribute(indexed: true) public var lane: String
    /// Fractional, so a move usually writes one row: the midpoint of its new neighbours.
    @Attribute(indexed: true) public var position: Double
    public var done = false

    /// A card; the store assigns its key when `id` is `nil`.
    public init(id: Int64? = nil, team: String, title: String, lane: String, position: Double, done: Bool = false) {
        (self.id, self.team, self.title, self.lane, self.position, self.done) = (id, team, title, lane, position, done)
    }
}

/// What a page sees of a card: `{"id": 7, "title": "Set up CI", "lane": "Done", "position": 5, "done": true}`.
public struct CardView: Encodable, Sendable {
    public let id: Int64?
    public let title: String
    public let lane: String
    public let position: Double
    public let done: Bool

    init(_ card: Card) {
        (id, title, lane, position, done) = (card.id, card.title, card.lane, card.position, card.done)
    }
}
