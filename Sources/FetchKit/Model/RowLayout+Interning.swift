import Synchronization

extension RowLayout {
    /// The layout of `names`, shared with every other caller asking for the same names: the rows and controllers
    /// of one request shape — thousands on a server — hold one layout between them rather than one each (a layout
    /// of four columns is about 440 bytes: its names and their index).
    ///
    /// The first ``InternedLayouts/capacity`` distinct column lists are kept for the life of the process; later
    /// ones get a layout of their own.
    ///
    /// - Complexity: O(*c*) for *c* names.
    public static func interned(names: [String]) -> RowLayout {
        internedLayouts.withLock { $0.layout(for: names) }
    }
}

/// The layouts ``RowLayout/interned(names:)`` hands out, by their names.
struct InternedLayouts: ~Copyable {
    /// How many distinct column lists are kept (an app has a few per entity; past this many, the lists are
    /// likely built on the fly, and a layout each is cheaper than keeping them all).
    static let capacity = 4_096

    private var byNames: [[String]: RowLayout] = [:]
    private let capacity: Int

    init(capacity: Int = Self.capacity) {
        self.capacity = capacity
    }

    /// How many layouts are kept.
    var count: Int { byNames.count }

    /// The kept layout of `names`, kept now if there is room; a layout of its own otherwise.
    mutating func layout(for names: [String]) -> RowLayout {
        if let layout = byNames[names] { return layout }
        let layout = RowLayout(names: names)
        if byNames.count < capacity { byNames[names] = layout }
        return layout
    }
}

private let internedLayouts = Mutex(InternedLayouts())
