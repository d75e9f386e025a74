@_spi(Benchmarks) import FetchKit
import FetchKitTesting
import Testing

/// A row of a diff test: its primary key, its sort value and its content version.
///
/// Two items are equal when key and version are: the sort value places a row, a version change is what a cell shows.
struct DiffItem: Hashable, Sendable, CustomStringConvertible {
    var key: Int64
    var sort: Int
    var version: Int

    init(_ key: Int64, sort: Int = 0, version: Int = 0) {
        self.key = key
        self.sort = sort
        self.version = version
    }

    var description: String { "\(key)" + (version == 0 ? "" : "v\(version)") }

    static func == (lhs: DiffItem, rhs: DiffItem) -> Bool { lhs.key == rhs.key && lhs.version == rhs.version }

    func hash(into hasher: inout Hasher) {
        hasher.combine(key)
        hasher.combine(version)
    }
}

/// Sectioned rows for diff tests, convertible to a `DiffSide` and to `ListSimulator`'s snapshot shape.
struct DiffSnapshot: CustomStringConvertible {
    var sections: [(name: String, items: [DiffItem])]

    init(_ sections: [(name: String, items: [DiffItem])]) {
        self.sections = sections
    }

    /// One unnamed section.
    init(items: [DiffItem]) {
        self.sections = [(name: "", items: items)]
    }

    /// Sections from keys, all version 0.
    init(keys: [(String, [Int64])]) {
        self.sections = keys.map { (name: $0.0, items: $0.1.map { DiffItem($0) }) }
    }

    var items: [DiffItem] { sections.flatMap(\.items) }
    var sectionNames: [String] { sections.map(\.name) }
    var list: [(section: String, rows: [DiffItem])] { sections.map { (section: $0.name, rows: $0.items) } }

    func side() throws -> DiffSide<Int64> {
        try DiffSide(sections: sections.map { (name: $0.name, keys: $0.items.map(\.key)) })
    }

    func stringSide() throws -> DiffSide<String> {
        try DiffSide(sections: sections.map { (name: $0.name, keys: $0.items.map { "k\($0.key)" }) })
    }

    var description: String {
        guard items.count <= 200 else { return "\(sections.count) sections, \(items.count) rows" }
        return sections.map { "\($0.name): \($0.items.map(\.description).joined(separator: " "))" }
            .joined(separator: " | ")
    }
}

/// Diffs snapshots and checks the result: through `ListSimulator` (UIKit's rules and the batch contract),
/// update flags against content, counts computed independently, and minimality of the moves.
enum DiffCheck {
    /// The shared order of sorted snapshots: section name, then sort value, then key.
    static func orderKey(_ name: String, _ item: DiffItem) -> (String, Int, Int64) {
        (name, item.sort, item.key)
    }

    /// Diffs with the shared order (section name, sort value, key) when `sharedOrder`, else without.
    static func diff(_ old: DiffSnapshot, _ new: DiffSnapshot, sharedOrder: Bool) throws -> Changeset {
        let oldItems = old.items
        let newItems = new.items
        let oldNames = old.sections.flatMap { section in section.items.map { _ in section.name } }
        let newNames = new.sections.flatMap { section in section.items.map { _ in section.name } }
        let isContentEqual: (Int, Int) -> Bool = { oldItems[$0].version == newItems[$1].version }
        if sharedOrder {
            return KeyedDiff.changeset(
                from: try old.side(), to: try new.side(),
                isOrderedBefore: { i, j in
                    orderKey(oldNames[i], oldItems[i]) < orderKey(newNames[j], newItems[j])
                }, isContentEqual: isContentEqual)
        }
        return KeyedDiff.changeset(
            from: try old.side(), to: try new.side(), isOrderedBefore: nil, isContentEqual: isContentEqual)
    }

    /// Runs every check on `changeset` from `old` to `new`; the first failure is thrown with `context`.
    static func verify(
        _ changeset: Changeset, from old: DiffSnapshot, to new: DiffSnapshot, context: String = ""
    ) throws {
        do {
            _ = try ListSimulator.apply(changeset, to: old.list, expecting: new.list, identifiedBy: \.key)
        } catch {
            throw CheckFailure("ListSimulator: \(error)\n\(describe(changeset, old, new, context))")
        }
        try checkUpdateFlags(changeset, old, new, context)
        try checkMinimality(changeset, old, new, context)
    }

    /// Every update and every `isUpdated` move joins rows of the same key whose content differs; every other move
    /// joins rows whose content is equal.
    static func checkUpdateFlags(_ c: Changeset, _ old: DiffSnapshot, _ new: DiffSnapshot, _ context: String) throws {
        func item(_ s: DiffSnapshot, _ path: RowPath) -> DiffItem { s.sections[path.section].items[path.row] }
        for update in c.rowUpdates {
            let a = item(old, update.from)
            let b = item(new, update.to)
            guard a.key == b.key, a.version != b.version else {
                throw CheckFailure("update \(update) joins \(a) and \(b)\n\(describe(c, old, new, context))")
            }
        }
        for move in c.rowMoves {
            let a = item(old, move.from)
            let b = item(new, move.to)
            guard a.key == b.key, move.isUpdated == (a.version != b.version) else {
                throw CheckFailure("move \(move) joins \(a) and \(b)\n\(describe(c, old, new, context))")
            }
        }
    }

    /// Counts computed independently of the engine: section moves are as few as reordering allows, deletes and
    /// inserts are exactly the rows that must be reported, and row moves number the cross-section rows plus,
    /// per section, the rows that stay minus a longest increasing subsequence (quadratic dynamic programming).
    static func checkMinimality(_ c: Changeset, _ old: DiffSnapshot, _ new: DiffSnapshot, _ context: String) throws {
        func fail(_ what: String) -> CheckFailure { CheckFailure(what + "\n" + describe(c, old, new, context)) }
        let newIndex = Dictionary(uniqueKeysWithValues: new.sectionNames.enumerated().map { ($1, $0) })
        // Sections matched by name, in old order, and the reorder they need.
        let matchedTargets = old.sectionNames.compactMap { newIndex[$0] }
        let sectionLIS = longestIncreasing(matchedTargets)
        let deleted = Set(c.sectionDeletes)
        let inserted = Set(c.sectionInserts)
        // A section reported deleted and inserted under the same name replaces a move.
        let replaced = deleted.filter { newIndex[old.sectionNames[$0]] != nil }
        for section in replaced {
            guard let target = newIndex[old.sectionNames[section]], inserted.contains(target) else {
                throw fail("section \(section) is deleted but its name survives and is not re-inserted")
            }
        }
        guard deleted.count - replaced.count == old.sectionNames.count - matchedTargets.count,
            inserted.count - replaced.count == new.sectionNames.count - matchedTargets.count
        else { throw fail("section deletes or inserts are not the sections missing on one side") }
        guard c.sectionMoves.count + replaced.count == matchedTargets.count - sectionLIS else {
            throw fail(
                "\(c.sectionMoves.count) section moves + \(replaced.count) replaced sections, "
                    + "expected \(matchedTargets.count - sectionLIS)")
        }
        // Rows: surviving sections are those not deleted (old) and not inserted (new).
        var newPlace: [Int64: (section: Int, row: Int)] = [:]
        for (t, section) in new.sections.enumerated() {
            for (row, item) in section.items.enumerated() { newPlace[item.key] = (t, row) }
        }
        var oldPlace: [Int64: Int] = [:]
        for (s, section) in old.sections.enumerated() {
            for item in section.items { oldPlace[item.key] = s }
        }
        var deletes = 0
        var moves = 0
        for (s, section) in old.sections.enumerated() where !deleted.contains(s) {
            let t = newIndex[section.name]
            var stayers: [Int] = []
            for item in section.items {
                guard let place = newPlace[item.key], !inserted.contains(place.section) else {
                    deletes += 1
                    continue
                }
                if place.section == t { stayers.append(place.row) } else { moves += 1 }
            }
            moves += stayers.count - longestIncreasing(stayers)
        }
        var inserts = 0
        for (t, section) in new.sections.enumerated() where !inserted.contains(t) {
            for item in section.items {
                guard let s = oldPlace[item.key], !deleted.contains(s) else {
                    inserts += 1
                    continue
                }
            }
        }
        guard c.rowDeletes.count == deletes, c.rowInserts.count == inserts, c.rowMoves.count == moves else {
            throw fail(
                "rows: \(c.rowDeletes.count) deletes, \(c.rowInserts.count) inserts, \(c.rowMoves.count) moves; "
                    + "expected \(deletes), \(inserts), \(moves)")
        }
    }

    /// The length of a longest strictly increasing subsequence, by O(n²) dynamic programming.
    static func longestIncreasing(_ values: [Int]) -> Int {
        var ending = [Int](repeating: 1, count: values.count)
        for i in values.indices {
            for j in 0..<i where values[j] < values[i] {
                ending[i] = max(ending[i], ending[j] + 1)
            }
        }
        return ending.max() ?? 0
    }

    static func describe(_ c: Changeset, _ old: DiffSnapshot, _ new: DiffSnapshot, _ context: String) -> String {
        guard c.changeCount <= 200 else { return "\(context)\n\(c.changeCount) changes" }
        return """
            \(context)
            old: \(old)
            new: \(new)
            sections: -\(c.sectionDeletes) +\(c.sectionInserts) moves \(c.sectionMoves.map { "\($0.from)->\($0.to)" })
            rows: -\(c.rowDeletes) +\(c.rowInserts) \
            moves \(c.rowMoves.map { "\($0.from)->\($0.to)\($0.isUpdated ? "*" : "")" })
            updates \(c.rowUpdates.map { "\($0.from)->\($0.to)" })
            """
    }
}

struct CheckFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

@Suite("Diff test checks")
struct DiffCheckTests {
    @Test("the quadratic LIS used as an independent reference")
    func referenceLIS() {
        #expect(DiffCheck.longestIncreasing([]) == 0)
        #expect(DiffCheck.longestIncreasing([3, 1, 2]) == 2)
        #expect(DiffCheck.longestIncreasing([5, 4, 3, 2, 1]) == 1)
        #expect(DiffCheck.longestIncreasing([0, 8, 4, 12, 2, 10, 6, 14, 1, 9]) == 4)
    }

    @Test("the checks reject a batch with a spurious move")
    func rejectsNonMinimalMoves() throws {
        let old = DiffSnapshot(keys: [("", [1, 2, 3])])
        let new = DiffSnapshot(keys: [("", [2, 3, 1])])
        // Valid for UIKit, but two moves where one is enough.
        let wasteful = Changeset(
            rowMoves: [
                Changeset.RowMove(from: RowPath(section: 0, row: 1), to: RowPath(section: 0, row: 0)),
                Changeset.RowMove(from: RowPath(section: 0, row: 2), to: RowPath(section: 0, row: 1))
            ], sectionCountsBefore: [3], sectionCountsAfter: [3])
        #expect(throws: CheckFailure.self) { try DiffCheck.verify(wasteful, from: old, to: new) }
    }

    @Test("the checks reject a spurious update")
    func rejectsSpuriousUpdate() throws {
        let snapshot = DiffSnapshot(keys: [("", [1, 2])])
        let spurious = Changeset(
            rowUpdates: [Changeset.RowUpdate(from: RowPath(section: 0, row: 0), to: RowPath(section: 0, row: 0))],
            sectionCountsBefore: [2], sectionCountsAfter: [2])
        #expect(throws: CheckFailure.self) { try DiffCheck.verify(spurious, from: snapshot, to: snapshot) }
    }
}
