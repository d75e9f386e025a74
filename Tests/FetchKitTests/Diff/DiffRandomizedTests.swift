import FetchKit
import FetchKitFixtures
import FetchKitTesting
import Testing

/// SplitMix64: a small seeded generator, so a failure names the seed that reproduces it.
typealias SplitMix64 = SeededRandom

/// Random pairs of snapshots: sorted ones sharing an order, and unordered ones with reordered sections.
struct DiffPairGenerator {
    var random: SplitMix64
    var nextKey: Int64 = 1
    let names = ["a", "b", "c", "d", "e", "f", "g"]

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    mutating func chance(_ probability: Double) -> Bool { Double.random(in: 0..<1, using: &random) < probability }
    mutating func name() -> String { names.randomElement(using: &random) ?? "a" }
    mutating func freshKey() -> Int64 {
        defer { nextKey += 1 }
        return nextKey
    }

    /// Groups rows by section name, sections by name, rows by (sort, key): the shape of a sorted, sectioned fetch.
    static func sorted(_ rows: [(section: String, item: DiffItem)]) -> DiffSnapshot {
        let grouped = Dictionary(grouping: rows, by: \.section)
        return DiffSnapshot(
            grouped.keys.sorted().map { name in
                let items = (grouped[name] ?? []).map(\.item).sorted { ($0.sort, $0.key) < ($1.sort, $1.key) }
                return (name: name, items: items)
            })
    }

    /// A sorted pair: rows deleted, inserted, re-sorted, moved across sections and changed.
    mutating func sortedPair() -> (DiffSnapshot, DiffSnapshot) {
        let count = Int.random(in: 0...40, using: &random)
        let old = (0..<count).map { _ in
            (section: name(), item: DiffItem(freshKey(), sort: Int.random(in: 0..<25, using: &random)))
        }
        let churn = Double.random(in: 0...0.4, using: &random)
        var new: [(section: String, item: DiffItem)] = []
        for var row in old where !chance(churn / 2) {
            if chance(churn) { row.item.sort = Int.random(in: 0..<25, using: &random) }
            if chance(churn / 2) { row.section = name() }
            if chance(churn) { row.item.version += 1 }
            new.append(row)
        }
        for _ in 0..<Int.random(in: 0...Int(churn * 20), using: &random) {
            new.append((section: name(), item: DiffItem(freshKey(), sort: Int.random(in: 0..<25, using: &random))))
        }
        return (Self.sorted(old), Self.sorted(new))
    }

    /// An unordered pair: sections in any order (some empty, some renamed away), rows in any order.
    mutating func unorderedPair() -> (DiffSnapshot, DiffSnapshot) {
        let old = unorderedSnapshot()
        return (old, unorderedSuccessor(of: old))
    }

    /// Up to five sections in any order, each of up to eight fresh rows.
    mutating func unorderedSnapshot() -> DiffSnapshot {
        let chosen = names.shuffled(using: &random).prefix(Int.random(in: 0...5, using: &random))
        return DiffSnapshot(
            chosen.map { name in
                (name: name, items: (0..<Int.random(in: 0...8, using: &random)).map { _ in DiffItem(freshKey()) })
            })
    }

    /// What `old` may become: sections dropped, added and swapped, rows deleted, inserted, moved and changed.
    mutating func unorderedSuccessor(of old: DiffSnapshot) -> DiffSnapshot {
        let churn = Double.random(in: 0...0.5, using: &random)
        // Section order: mostly kept, some swapped; some sections dropped, some added.
        var newNames = old.sectionNames.filter { _ in !chance(churn / 2) }
        for _ in 0..<Int.random(in: 0...2, using: &random) {
            let added = name()
            if !newNames.contains(added) {
                newNames.insert(added, at: Int.random(in: 0...newNames.count, using: &random))
            }
        }
        if newNames.count > 1 {
            for _ in 0..<Int.random(in: 0...2, using: &random) {
                newNames.swapAt(
                    Int.random(in: 0..<newNames.count, using: &random),
                    Int.random(in: 0..<newNames.count, using: &random))
            }
        }
        // Rows: placed by a rank near their old global position, sometimes far, sometimes in another section.
        var placed: [String: [(rank: Double, item: DiffItem)]] = [:]
        for (position, var item) in old.items.enumerated() where !chance(churn / 2) {
            let oldName = old.sections.first { $0.items.contains(item) }?.name ?? ""
            var section = oldName
            if !newNames.contains(section) || chance(churn / 3) {
                guard let other = newNames.randomElement(using: &random) else { continue }
                section = other
            }
            let rank = chance(churn) ? Double.random(in: 0..<50, using: &random) : Double(position)
            if chance(churn) { item.version += 1 }
            placed[section, default: []].append((rank: rank, item: item))
        }
        for _ in 0..<Int.random(in: 0...Int(churn * 12), using: &random) {
            guard let section = newNames.randomElement(using: &random) else { break }
            let rank = Double.random(in: 0..<50, using: &random)
            placed[section, default: []].append((rank: rank, item: DiffItem(freshKey())))
        }
        return DiffSnapshot(
            newNames.map { name in
                (name: name, items: (placed[name] ?? []).sorted { $0.rank < $1.rank }.map(\.item))
            })
    }
}

/// Applies every stage of `changeset` through `ListSimulator`, each against the previous stage's snapshot (as
/// `StagedChangeset.snapshots` gives it), and through `ListSimulator.applyStaged`, which computes the snapshots on
/// its own: both must agree.
func verifyStages(_ changeset: Changeset, from old: DiffSnapshot, to new: DiffSnapshot, context: String) throws {
    let staged = try changeset.staged()
    let snapshots = try staged.snapshots(from: old.list, to: new.list)
    let kinds = staged.stages.map(\.kind)
    guard kinds == StagedChangeset.Stage.Kind.allCases.filter(kinds.contains), snapshots.count == kinds.count else {
        throw CheckFailure("stages out of order: \(kinds)\n\(context)")
    }
    var current = old.list
    for (stage, snapshot) in zip(staged.stages, snapshots) {
        do {
            _ = try ListSimulator.apply(stage.changeset, to: current, expecting: snapshot, identifiedBy: \.key)
        } catch {
            throw CheckFailure(
                "stage \(stage.kind): \(error)\n" + DiffCheck.describe(stage.changeset, old, new, context))
        }
        guard stage.sectionCounts == snapshot.map(\.rows.count) else {
            throw CheckFailure("stage \(stage.kind) counts \(stage.sectionCounts)\n\(context)")
        }
        current = snapshot
    }
    guard current.map(\.section) == new.sectionNames, current.map(\.rows) == new.sections.map(\.items) else {
        throw CheckFailure("the last stage does not end at the new snapshot\n\(context)")
    }
    let simulated: [[(section: String, rows: [DiffItem])]]
    do {
        simulated = try ListSimulator.applyStaged(staged, to: old.list, expecting: new.list, identifiedBy: \.key)
    } catch {
        throw CheckFailure("applyStaged: \(error)\n" + DiffCheck.describe(changeset, old, new, context))
    }
    guard simulated.map({ $0.map(\.section) }) == snapshots.map({ $0.map(\.section) }),
        simulated.map({ $0.map(\.rows) }) == snapshots.map({ $0.map(\.rows) })
    else { throw CheckFailure("applyStaged's snapshots differ from StagedChangeset.snapshots\n\(context)") }
}

@Suite("Diff engine: randomised")
struct DiffRandomizedTests {
    @Test("sorted pairs, with and without the shared order, through ListSimulator, minimal moves, staged")
    func sortedPairs() throws {
        let seed: UInt64 = 0x5eed_0001
        var generator = DiffPairGenerator(seed: seed)
        for iteration in 0..<3_000 {
            let (old, new) = generator.sortedPair()
            for shared in [true, false] {
                let context = "seed \(seed), iteration \(iteration), shared order \(shared)"
                let changeset = try DiffCheck.diff(old, new, sharedOrder: shared)
                try DiffCheck.verify(changeset, from: old, to: new, context: context)
                try verifyStages(changeset, from: old, to: new, context: context)
                if shared {
                    #expect(changeset.sectionMoves.isEmpty, "\(context)")
                }
            }
        }
    }

    @Test("unordered pairs with reordered and empty sections, through ListSimulator, minimal moves, staged")
    func unorderedPairs() throws {
        let seed: UInt64 = 0x5eed_0002
        var generator = DiffPairGenerator(seed: seed)
        var sectionMoves = 0
        var reloadedSections = 0
        for iteration in 0..<3_000 {
            let (old, new) = generator.unorderedPair()
            let context = "seed \(seed), iteration \(iteration)"
            let changeset = try DiffCheck.diff(old, new, sharedOrder: false)
            try DiffCheck.verify(changeset, from: old, to: new, context: context)
            try verifyStages(changeset, from: old, to: new, context: context)
            sectionMoves += changeset.sectionMoves.count
            reloadedSections +=
                changeset.sectionDeletes.filter {
                    new.sectionNames.contains(old.sectionNames[$0])
                }.count
        }
        // The generator must exercise both ways of reordering sections.
        #expect(sectionMoves > 100)
        #expect(reloadedSections > 100)
    }

    @Test("large sorted pairs: the merge walk and the residue table at scale")
    func largePairs() throws {
        var random = SplitMix64(seed: 0x5eed_0003)
        for iteration in 0..<4 {
            let count = 5_000
            let old = (0..<count).map { DiffItem(Int64($0), sort: Int.random(in: 0..<1_000_000, using: &random)) }
            var new: [DiffItem] = []
            for var item in old where Int.random(in: 0..<40, using: &random) != 0 {
                switch Int.random(in: 0..<40, using: &random) {
                case 0: item.sort = Int.random(in: 0..<1_000_000, using: &random)
                case 1: item.version += 1
                default: break
                }
                new.append(item)
            }
            for key in count..<(count + 125) {
                new.append(DiffItem(Int64(key), sort: Int.random(in: 0..<1_000_000, using: &random)))
            }
            let order: (DiffItem, DiffItem) -> Bool = { ($0.sort, $0.key) < ($1.sort, $1.key) }
            let oldSnapshot = DiffSnapshot(items: old.sorted(by: order))
            let newSnapshot = DiffSnapshot(items: new.sorted(by: order))
            for shared in [true, false] {
                let changeset = try DiffCheck.diff(oldSnapshot, newSnapshot, sharedOrder: shared)
                _ = try ListSimulator.apply(
                    changeset, to: oldSnapshot.list, expecting: newSnapshot.list, identifiedBy: \.key)
                try DiffCheck.checkUpdateFlags(changeset, oldSnapshot, newSnapshot, "iteration \(iteration)")
                // Every re-sorted row that really changed place is one move, nothing else moves.
                #expect(changeset.rowMoves.count <= old.count / 40 + 10)
            }
        }
    }
}
