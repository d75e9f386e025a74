import FetchKit
import FetchKitFixtures
import FetchKitTesting
import Testing

/// Random snapshots, the changeset a slow reference builds between them, and mutations of it.
@Suite struct ListSimulatorPropertyTests {
    struct Item: Equatable, CustomStringConvertible {
        var id: Int
        var version: Int
        var description: String { version == 0 ? "\(id)" : "\(id)v\(version)" }
    }

    typealias Snapshot = [(section: String, rows: [Item])]

    @Test func referenceBatchesPassAndMutatedOnesFail() throws {
        var mutationsTried = 0
        var coverage: [String: Int] = [:]
        for seed in UInt64(0)..<3_000 {
            var random = ListSimulatorRandom(seed: seed)
            let old = Self.randomSnapshot(&random)
            let new = Self.evolve(old, &random)
            let changeset = ListSimulatorReference(old: old, new: new).changeset
            for (kind, present) in Self.kinds(of: changeset) where present { coverage[kind, default: 0] += 1 }
            do {
                let result = try ListSimulator.apply(changeset, to: old, expecting: new, identifiedBy: \.id)
                #expect(result.map(\.section) == new.map(\.section), "seed \(seed)")
                #expect(result.map(\.rows) == new.map(\.rows), "seed \(seed)")
            } catch {
                Issue.record("seed \(seed): the reference batch is rejected: \(error)\n\(changeset)")
                continue
            }
            for _ in 0..<4 {
                guard let (mutated, mutation) = Self.mutate(changeset, &random) else { break }
                mutationsTried += 1
                #expect(
                    throws: ListSimulator.Violation.self,
                    "seed \(seed): \(mutation) still passes\n\(mutated)"
                ) {
                    try ListSimulator.apply(mutated, to: old, expecting: new, identifiedBy: \.id)
                }
            }
        }
        #expect(mutationsTried > 5_000)
        for kind in Self.kinds(of: Changeset(sectionCountsBefore: [], sectionCountsAfter: [])).map(\.0) {
            #expect(coverage[kind, default: 0] >= 30, "only \(coverage[kind, default: 0]) batches with \(kind)")
        }
    }

    /// Which kinds of operation a batch holds, so the test can show the generator reaches every kind.
    static func kinds(of changeset: Changeset) -> [(String, Bool)] {
        [
            ("section deletes", !changeset.sectionDeletes.isEmpty),
            ("section inserts", !changeset.sectionInserts.isEmpty),
            ("section moves", !changeset.sectionMoves.isEmpty),
            (
                "section moves with rows leaving",
                changeset.sectionMoves.contains { move in
                    changeset.rowMoves.contains { $0.from.section == move.from }
                }
            ),
            ("row deletes", !changeset.rowDeletes.isEmpty),
            ("row inserts", !changeset.rowInserts.isEmpty),
            ("moves within a section", changeset.rowMoves.contains { $0.from.section == $0.to.section }),
            ("moves across sections", changeset.rowMoves.contains { $0.from.section != $0.to.section }),
            ("updated moves", changeset.rowMoves.contains(where: \.isUpdated)),
            ("updates in place", changeset.rowUpdates.contains { $0.from == $0.to }),
            ("updates with shifted paths", changeset.rowUpdates.contains { $0.from != $0.to }),
            ("empty batches", changeset.isEmpty)
        ]
    }

    /// Up to 5 named sections of up to 6 rows, identifiers unique.
    static func randomSnapshot(_ random: inout ListSimulatorRandom) -> Snapshot {
        var next = 0
        return (0..<Int.random(in: 0...5, using: &random)).map { section in
            let rows = (0..<Int.random(in: 0...6, using: &random)).map { _ in
                defer { next += 1 }
                return Item(id: next, version: 0)
            }
            return (section: "S\(section)", rows: rows)
        }
    }

    /// A new snapshot: sections inserted, rows moved across sections, sections deleted, rows shuffled, changed,
    /// deleted and inserted, sections reordered.
    static func evolve(_ old: Snapshot, _ random: inout ListSimulatorRandom) -> Snapshot {
        var sections = old
        var nextRow = 1_000
        var nextSection = 100
        func freshRow() -> Item {
            defer { nextRow += 1 }
            return Item(id: nextRow, version: 0)
        }
        for _ in 0..<Int.random(in: 0...2, using: &random) {
            let rows = (0..<Int.random(in: 0...3, using: &random)).map { _ in freshRow() }
            let at = Int.random(in: 0...sections.count, using: &random)
            sections.insert((section: "S\(nextSection)", rows: rows), at: at)
            nextSection += 1
        }
        if !sections.isEmpty {
            for section in sections.indices {
                for row in sections[section].rows.indices.reversed()
                where Int.random(in: 0..<7, using: &random) == 0 {
                    let item = sections[section].rows.remove(at: row)
                    let target = Int.random(in: 0..<sections.count, using: &random)
                    let at = Int.random(in: 0...sections[target].rows.count, using: &random)
                    sections[target].rows.insert(item, at: at)
                }
            }
        }
        sections.removeAll { _ in Int.random(in: 0..<6, using: &random) == 0 }
        // Often one section keeps its rows in order (rows may leave it) and then moves: a section move.
        let reordered =
            sections.count > 1 && Int.random(in: 0..<2, using: &random) == 0
            ? Int.random(in: 0..<sections.count, using: &random) : nil
        for section in sections.indices {
            let calm = section == reordered
            if !calm, Int.random(in: 0..<3, using: &random) == 0 { sections[section].rows.shuffle(using: &random) }
            sections[section].rows.removeAll { _ in Int.random(in: 0..<7, using: &random) == 0 }
            for row in sections[section].rows.indices where Int.random(in: 0..<5, using: &random) == 0 {
                sections[section].rows[row].version += 1
            }
            for _ in 0..<(calm ? 0 : Int.random(in: 0...2, using: &random)) {
                let at = Int.random(in: 0...sections[section].rows.count, using: &random)
                sections[section].rows.insert(freshRow(), at: at)
            }
        }
        if let reordered {
            let moved = sections.remove(at: reordered)
            sections.insert(moved, at: Int.random(in: 0...sections.count, using: &random))
        }
        return sections
    }

    /// The changeset with one operation dropped or one index shifted by one, and what was done, or `nil` when the
    /// changeset has no operation.
    static func mutate(_ changeset: Changeset, _ random: inout ListSimulatorRandom) -> (Changeset, String)? {
        var kinds: [Int] = []
        if !changeset.sectionDeletes.isEmpty { kinds.append(0) }
        if !changeset.sectionInserts.isEmpty { kinds.append(1) }
        if !changeset.sectionMoves.isEmpty { kinds.append(2) }
        if !changeset.rowDeletes.isEmpty { kinds.append(3) }
        if !changeset.rowInserts.isEmpty { kinds.append(4) }
        if !changeset.rowMoves.isEmpty { kinds.append(5) }
        if !changeset.rowUpdates.isEmpty { kinds.append(6) }
        if changeset.rowMoves.contains(where: \.isUpdated) { kinds.append(7) }
        guard let kind = kinds.randomElement(using: &random) else { return nil }
        var mutated = changeset
        let drop = Bool.random(using: &random)
        let delta = Bool.random(using: &random) ? 1 : -1
        let inSection = Bool.random(using: &random)
        func shift(_ path: RowPath) -> RowPath {
            inSection
                ? RowPath(section: path.section + delta, row: path.row)
                : RowPath(section: path.section, row: path.row + delta)
        }
        let what: String
        switch kind {
        case 0:
            let index = Int.random(in: 0..<changeset.sectionDeletes.count, using: &random)
            if drop { mutated.sectionDeletes.remove(at: index) } else { mutated.sectionDeletes[index] += delta }
            what = "section delete \(index)"
        case 1:
            let index = Int.random(in: 0..<changeset.sectionInserts.count, using: &random)
            if drop { mutated.sectionInserts.remove(at: index) } else { mutated.sectionInserts[index] += delta }
            what = "section insert \(index)"
        case 2:
            let index = Int.random(in: 0..<changeset.sectionMoves.count, using: &random)
            if drop {
                mutated.sectionMoves.remove(at: index)
            } else if inSection {
                mutated.sectionMoves[index].from += delta
            } else {
                mutated.sectionMoves[index].to += delta
            }
            what = "section move \(index)"
        case 3:
            let index = Int.random(in: 0..<changeset.rowDeletes.count, using: &random)
            if drop {
                mutated.rowDeletes.remove(at: index)
            } else {
                mutated.rowDeletes[index] = shift(changeset.rowDeletes[index])
            }
            what = "row delete \(index)"
        case 4:
            let index = Int.random(in: 0..<changeset.rowInserts.count, using: &random)
            if drop {
                mutated.rowInserts.remove(at: index)
            } else {
                mutated.rowInserts[index] = shift(changeset.rowInserts[index])
            }
            what = "row insert \(index)"
        case 5:
            let index = Int.random(in: 0..<changeset.rowMoves.count, using: &random)
            if drop {
                mutated.rowMoves.remove(at: index)
            } else if Bool.random(using: &random) {
                mutated.rowMoves[index].from = shift(changeset.rowMoves[index].from)
            } else {
                mutated.rowMoves[index].to = shift(changeset.rowMoves[index].to)
            }
            what = "row move \(index)"
        case 6:
            let index = Int.random(in: 0..<changeset.rowUpdates.count, using: &random)
            if drop {
                mutated.rowUpdates.remove(at: index)
            } else if Bool.random(using: &random) {
                mutated.rowUpdates[index].from = shift(changeset.rowUpdates[index].from)
            } else {
                mutated.rowUpdates[index].to = shift(changeset.rowUpdates[index].to)
            }
            what = "row update \(index)"
        default:
            let index = changeset.rowMoves.firstIndex(where: \.isUpdated) ?? 0
            mutated.rowMoves[index].isUpdated = false
            return (mutated, "updated row move \(index) no longer updated")
        }
        return (mutated, (drop ? "dropped " : "shifted ") + what)
    }
}

/// A changeset between two snapshots built the slow, obvious way.
///
/// Sections: the longest run of common sections in the same order stays; another common section moves when its
/// new rows are exactly its old rows in order (minus leavers), else it is deleted and inserted. Rows: a row whose
/// section stays and that is in both snapshots stays when it is in the longest run in order, else it moves; a row
/// entering a moved section is impossible by construction; one entering an inserted section, or leaving a deleted
/// one, is a delete and an insert; a row with a new version is updated (a moving one is a move flagged updated).
struct ListSimulatorReference {
    typealias Item = ListSimulatorPropertyTests.Item
    typealias Snapshot = ListSimulatorPropertyTests.Snapshot

    enum Fate: Equatable {
        case gone
        case stays(Int)
        case moves(Int)
    }

    let changeset: Changeset

    init(old: Snapshot, new: Snapshot) {
        var newSectionIndex: [String: Int] = [:]
        for (index, section) in new.enumerated() { newSectionIndex[section.section] = index }
        var oldRowPath: [Int: RowPath] = [:]
        for (section, content) in old.enumerated() {
            for (row, item) in content.rows.enumerated() {
                oldRowPath[item.id] = RowPath(section: section, row: row)
            }
        }
        var newRowPath: [Int: RowPath] = [:]
        for (section, content) in new.enumerated() {
            for (row, item) in content.rows.enumerated() {
                newRowPath[item.id] = RowPath(section: section, row: row)
            }
        }

        // Sections.
        let common = old.indices.compactMap { index -> (Int, Int)? in
            newSectionIndex[old[index].section].map { (index, $0) }
        }
        let kept = Set(Self.longestIncreasing(common.map(\.1)).map { common[$0].0 })
        var oldFate = [Fate](repeating: .gone, count: old.count)
        var newSource = [Int?](repeating: nil, count: new.count)
        var sectionMoves: [Changeset.Move] = []
        for (oldIndex, newIndex) in common {
            let leftovers = old[oldIndex].rows.filter { newRowPath[$0.id]?.section == newIndex }.map(\.id)
            if kept.contains(oldIndex) {
                oldFate[oldIndex] = .stays(newIndex)
                newSource[newIndex] = oldIndex
            } else if leftovers == new[newIndex].rows.map(\.id) {
                oldFate[oldIndex] = .moves(newIndex)
                newSource[newIndex] = oldIndex
                sectionMoves.append(.init(from: oldIndex, to: newIndex))
            }
        }
        let sectionDeletes = old.indices.filter { oldFate[$0] == .gone }
        let sectionInserts = new.indices.filter { newSource[$0] == nil }

        // Rows.
        var rowDeletes: [RowPath] = []
        var rowInserts: [RowPath] = []
        var rowMoves: [Changeset.RowMove] = []
        var rowUpdates: [Changeset.RowUpdate] = []
        func isUpdated(_ from: RowPath, _ to: RowPath) -> Bool {
            old[from.section].rows[from.row].version != new[to.section].rows[to.row].version
        }
        for (oldIndex, content) in old.enumerated() where oldFate[oldIndex] != .gone {
            var sameSection: [(from: RowPath, to: RowPath)] = []
            for (row, item) in content.rows.enumerated() {
                let from = RowPath(section: oldIndex, row: row)
                guard let to = newRowPath[item.id], let source = newSource[to.section] else {
                    rowDeletes.append(from)
                    continue
                }
                if source == oldIndex {
                    sameSection.append((from, to))
                } else {
                    rowMoves.append(.init(from: from, to: to, isUpdated: isUpdated(from, to)))
                }
            }
            let staying = Set(Self.longestIncreasing(sameSection.map(\.to.row)))
            for (position, pair) in sameSection.enumerated() {
                let updated = isUpdated(pair.from, pair.to)
                if staying.contains(position) {
                    if updated { rowUpdates.append(.init(from: pair.from, to: pair.to)) }
                } else {
                    rowMoves.append(.init(from: pair.from, to: pair.to, isUpdated: updated))
                }
            }
        }
        for (newIndex, content) in new.enumerated() where newSource[newIndex] != nil {
            for (row, item) in content.rows.enumerated() {
                let from = oldRowPath[item.id]
                if from == nil || from.map({ oldFate[$0.section] == .gone }) == true {
                    rowInserts.append(RowPath(section: newIndex, row: row))
                }
            }
        }
        changeset = Changeset(
            sectionDeletes: sectionDeletes, sectionInserts: sectionInserts, sectionMoves: sectionMoves,
            rowDeletes: rowDeletes.sorted(), rowInserts: rowInserts.sorted(), rowMoves: rowMoves,
            rowUpdates: rowUpdates, sectionCountsBefore: old.map(\.rows.count),
            sectionCountsAfter: new.map(\.rows.count))
    }

    /// Positions of one longest strictly increasing subsequence of `values`, by the quadratic dynamic program.
    static func longestIncreasing(_ values: [Int]) -> [Int] {
        guard !values.isEmpty else { return [] }
        var length = [Int](repeating: 1, count: values.count)
        var previous = [Int?](repeating: nil, count: values.count)
        for i in values.indices {
            for j in 0..<i where values[j] < values[i] && length[j] + 1 > length[i] {
                length[i] = length[j] + 1
                previous[i] = j
            }
        }
        var position = length.indices.max { length[$0] < length[$1] }
        var result: [Int] = []
        while let current = position {
            result.append(current)
            position = previous[current]
        }
        return result.reversed()
    }
}

/// A small seeded generator (ListSimulatorRandom), so a failing seed reproduces.
typealias ListSimulatorRandom = SeededRandom
