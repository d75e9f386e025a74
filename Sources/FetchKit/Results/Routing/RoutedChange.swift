/// One committed change as the router hands it to a controller it can affect: the store's change, and for
/// each entity table whose rows the router re-read, those rows.
struct RoutedChange: Sendable {
    /// The change as the store published it.
    let change: StoreChange
    /// The re-read rows, by entity table.
    let rows: [String: RereadRows]
}
