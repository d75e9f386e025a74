@_spi(Benchmarks) import FetchKit
import FetchKitFixtures
import FetchKitTesting
import Testing

/// Of the longest runs of rows that keep their place, the diff picks one that keeps rows whose index path
/// does not change: a batch does not "move" a row to the path it already has when a minimal batch can leave it.
@Suite("KeyedDiff: moves that stay put")
struct DiffFixedPointTests {
    static func diff(_ old: [Int], _ new: [Int]) -> Changeset {
        KeyedDiff.changeset(from: DiffSide(keys: old), to: DiffSide(keys: new)) { _, _ in true }
    }

    /// The length of a longest strictly increasing subsequence (quadratic: the inputs are small).
    static func longestRun(_ values: [Int]) -> Int {
        var best = [Int](repeating: 1, count: values.count)
        for i in values.indices { for j in 0..<i where values[j] < values[i] { best[i] = max(best[i], best[j] + 1) } }
        return best.max() ?? 0
    }

    @Test(arguments: [3, 5, 101, 1_001])
    func aReversedListKeepsItsMiddleRow(count: Int) throws {
        let old = Array(0..<count)
        let changeset = Self.diff(old, old.reversed())
        #expect(changeset.rowMoves.count == count - 1)
        #expect(
            !changeset.rowMoves.contains { $0.from == $0.to },
            "a move to the same path: \(changeset.rowMoves.filter { $0.from == $0.to })")
        _ = try ListSimulator.apply(changeset, to: [old], expecting: [Array(old.reversed())])
    }

    @Test func aRowBetweenTwoSwappedRowsStays() throws {
        // 0 1 2 → 2 1 0: one longest run of length 1; the row in the middle keeps its path.
        let changeset = Self.diff([0, 1, 2, 3, 4], [0, 3, 2, 1, 4])
        #expect(changeset.rowMoves.count == 2)
        #expect(!changeset.rowMoves.contains { $0.from == $0.to })
    }

    @Test func randomPermutationsStayMinimalAndValid() throws {
        var random = SeededRandom(seed: 0xF1_0ED)
        var sameKept = 0
        for _ in 0..<2_000 {
            let count = random.int(1...9)
            var new = Array(0..<count)
            for index in stride(from: count - 1, to: 0, by: -1) { new.swapAt(index, random.int(0...index)) }
            let old = Array(0..<count)
            let changeset = Self.diff(old, new)
            // Minimal: every row outside one longest increasing run of new positions moves, no other.
            let newPositions = old.map { key in new.firstIndex(of: key)! }
            #expect(changeset.rowMoves.count == count - Self.longestRun(newPositions), "\(new)")
            _ = try ListSimulator.apply(changeset, to: [old], expecting: [new])
            // A permutation whose fixed points all lie on one longest run moves none of them.
            let fixed = old.indices.filter { newPositions[$0] == $0 }
            if !fixed.isEmpty, Self.longestRun(fixed.map { newPositions[$0] }) == fixed.count,
                Self.longestRun(newPositions) == count - changeset.rowMoves.count,
                fixed.count == count - changeset.rowMoves.count
            {
                #expect(!changeset.rowMoves.contains { $0.from == $0.to }, "\(new)")
                sameKept += 1
            }
        }
        #expect(sameKept > 0)
    }

    @Test func aPinnedRowStaysWhileTheRowsAroundItMove() throws {
        // Row 3 went before rows 1 and 2: the minimal batch moves row 3; with row 3 pinned, rows 1 and 2 move.
        let old = [1, 2, 3]
        let new = [3, 1, 2]
        #expect(Self.diff(old, new).rowMoves.map(\.from) == [RowPath(section: 0, row: 2)])
        let pinned = KeyedDiff.changeset(
            from: DiffSide(keys: old), to: DiffSide(keys: new), isPinned: { old[$0] == 3 },
            isContentEqual: { _, _ in true })
        #expect(pinned.rowMoves.map(\.from) == [RowPath(section: 0, row: 0), RowPath(section: 0, row: 1)])
        _ = try ListSimulator.apply(pinned, to: [old], expecting: [new])
    }
}
