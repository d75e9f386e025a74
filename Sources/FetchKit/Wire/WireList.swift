/// The Swift reference client of the wire format: a sectioned list that applies ``WireChangeset``s as a
/// table view applies batches, so a remote app (or a test) holds exactly the server's results.
///
/// ```swift
/// var list = WireList<Todo>()
/// for try await message in socket.messages {
///     try list.apply(JSONDecoder().decode(WireChangeset<Todo>.self, from: message))
/// }
/// list.sections[0].objects
/// ```
public struct WireList<Object: Sendable>: Sendable {
    /// One section: its name and its objects, in order.
    public struct Section: Sendable {
        /// The section's name.
        public var name: String
        /// Its objects, in order.
        public var objects: [Object]
    }

    /// Why a batch does not apply: the client is out of step with the server (refetch), or the batch breaks
    /// the format.
    public struct Mismatch: Error, CustomStringConvertible, Sendable {
        /// What did not match.
        public let description: String
    }

    /// The sections, in order.
    public private(set) var sections: [Section]

    /// An empty list (apply ``WireChangeset/init(inserting:transactionID:)`` first).
    public init() { sections = [] }

    /// Applies `batch`: deletes and move sources in the old index space (descending), inserts and move
    /// destinations in the new one (ascending), then updates; the counts must match before and after.
    ///
    /// - Throws: ``Mismatch`` when the counts before are not the list's, a path falls outside it, or the
    ///   counts after differ; the list is then unchanged.
    /// - Complexity: O(*n* + *c* log *c*) for *n* rows and *c* changes.
    public mutating func apply(_ batch: WireChangeset<Object>) throws(Mismatch) {
        guard batch.version == WireChangeset<Object>.currentVersion else {
            throw Mismatch(description: "wire version \(batch.version) is not \(WireChangeset<Object>.currentVersion)")
        }
        let counts = sections.map(\.objects.count)
        guard counts == batch.sectionCountsBefore else {
            throw Mismatch(
                description: "the list has \(counts) rows per section, the batch expects \(batch.sectionCountsBefore)")
        }
        func check(_ path: RowPath, in lists: [[Object]], _ what: String, inserting: Bool = false) throws(Mismatch) {
            guard lists.indices.contains(path.section),
                path.row >= 0, path.row < lists[path.section].count + (inserting ? 1 : 0)
            else {
                throw Mismatch(description: "\(what) \(path) is outside the list")
            }
        }
        var old = sections.map(\.objects)
        // Objects that move keep their identity; a changed one comes with its new object.
        var moving: [(to: RowPath, object: Object)] = []
        for move in batch.rowMoves {
            try check(move.from, in: old, "a move from")
            moving.append((move.to, move.object ?? old[move.from.section][move.from.row]))
        }
        // Remove rows in the old index space, last first.
        for path in (batch.rowDeletes + batch.rowMoves.map(\.from)).sorted(by: >) {
            try check(path, in: old, "a deleted row")
            old[path.section].remove(at: path.row)
        }
        // Remove deleted and moved sections; carry the moved ones.
        let movedSections = Dictionary(batch.sectionMoves.map { ($0.from, $0.to) }, uniquingKeysWith: { $1 })
        var carried: [(index: Int, section: Section)] = []
        var kept: [Section] = []
        for index in old.indices {
            let section = Section(name: sections[index].name, objects: old[index])
            if batch.sectionDeletes.contains(index) { continue }
            if let to = movedSections[index] { carried.append((to, section)) } else { kept.append(section) }
        }
        // Insert new and moved sections at their new indexes, lowest first.
        let arriving =
            (batch.sectionInserts.map { (index: $0.index, section: Section(name: $0.name, objects: $0.objects)) }
            + carried)
            .sorted { $0.index < $1.index }
        for (index, section) in arriving {
            guard index >= 0, index <= kept.count else {
                throw Mismatch(description: "section \(index) is outside the list")
            }
            kept.insert(section, at: index)
        }
        // Insert rows and move destinations in the new index space, lowest first.
        let placed = (batch.rowInserts.map { (to: $0.at, object: $0.object) } + moving).sorted { $0.to < $1.to }
        var lists = kept.map(\.objects)
        for (to, object) in placed {
            try check(to, in: lists, "an inserted row", inserting: true)
            lists[to.section].insert(object, at: to.row)
        }
        for update in batch.rowUpdates {
            try check(update.to, in: lists, "an updated row")
            lists[update.to.section][update.to.row] = update.object
        }
        guard lists.map(\.count) == batch.sectionCountsAfter else {
            throw Mismatch(
                description:
                    "the batch gives \(lists.map(\.count)) rows per section, it announced \(batch.sectionCountsAfter)")
        }
        sections = zip(kept, lists).map { Section(name: $0.name, objects: $1) }
    }
}
