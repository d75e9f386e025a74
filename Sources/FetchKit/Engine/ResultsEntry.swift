/// One fetched row and the object made from it.
struct ResultsEntry<Object: Sendable>: Sendable {
    /// The row as fetched: its values decide updates (content changes) and its order.
    let row: Row
    /// The row as the controller's object type.
    let object: Object
}
