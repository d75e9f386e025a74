import Synchronization

extension RowLayout {
    /// The layout of `names`, shared with every other caller asking for the same names: the rows and controllers
    /// of one request shape — thousands on a server — hold one layout between them rather than one each (a layout
    /// of four columns is about 440 bytes: its names and their index).
    ///
    /// The first 4,096 distinct column lists are kept for the life of the process (an app has a few per entity);
    /// later ones get a layout of their own.
    ///
    /// - Complexity: O(*c*) for *c* names.
    public static func interned(names: [String]) -> RowLayout {
        internedLayouts.withLock { table in table.value(for: names) { RowLayout(names: $0) } }
    }
}

/// The layouts ``RowLayout/interned(names:)`` hands out, by their names.
private let internedLayouts = Mutex(InternTable<[String], RowLayout>(capacity: 4_096))
