import FetchKitMacros

/// A card on the board: a title, its lane (the section), its place in the lane, whether it is done.
///
/// A page receives cards as they encode: `{"id": 7, "title": "Set up CI", "lane": "Done", "position": 5, "done":
/// true}`.
@Entity(table: "card")
public struct Card: Equatable {
    @PrimaryKey public var id: Int64?
    public var title: String
    @Attribute(indexed: true) public var lane: String
    /// Fractional, so a move usually writes one row: the midpoint of its new neighbours.
    @Attribute(indexed: true) public var position: Double
    public var done = false

    /// A card; the store assigns its key when `id` is `nil`.
    public init(id: Int64? = nil, title: String, lane: String, position: Double, done: Bool = false) {
        self.id = id
        self.title = title
        self.lane = lane
        self.position = position
        self.done = done
    }
}
