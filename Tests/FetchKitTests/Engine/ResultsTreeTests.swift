import FetchKitFixtures
import FetchKitTesting
import Testing

@testable import FetchKit

@Suite("ResultsTree: a persistent counted B+ tree")
struct ResultsTreeTests {
    /// Random positional inserts, removals and replacements, checked against an array after every step, with
    /// every earlier version kept alive and checked unchanged at the end (persistence).
    @Test(arguments: [1 as UInt64, 2, 3, 4])
    func randomEditsMatchAnArrayAndOldVersionsStayIntact(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var tree = ResultsTree<Int, Int>()
        var model: [Int] = []
        var versions: [(ResultsTree<Int, Int>, [Int])] = []
        for step in 0..<6_000 {
            let roll = random.int(0..<10)
            if roll < 6 || model.isEmpty {
                let index = random.int(0...model.count)
                tree.insert(step, at: index)
                model.insert(step, at: index)
            } else if roll < 9 {
                let index = random.int(0..<model.count)
                #expect(tree.remove(at: index) == model.remove(at: index), "seed \(seed) step \(step)")
            } else {
                let index = random.int(0..<model.count)
                tree.replace(at: index, with: -step)
                model[index] = -step
            }
            if step % 500 == 0 { versions.append((tree, model)) }
            if step % 97 == 0 {
                #expect(tree.invariantViolation() == nil, "seed \(seed) step \(step)")
                #expect(Array(tree) == model, "seed \(seed) step \(step)")
            }
        }
        #expect(tree.invariantViolation() == nil)
        #expect(Array(tree) == model)
        #expect(tree.count == model.count)
        for index in stride(from: 0, to: model.count, by: 7) { #expect(tree[index] == model[index]) }
        for (version, expected) in versions {
            #expect(Array(version) == expected, "an old version changed (seed \(seed))")
            #expect(version.invariantViolation() == nil)
        }
    }

    /// Removing everything, from either end or at random, keeps the tree valid down to empty.
    @Test(arguments: [0, 1, 2])
    func drainsToEmpty(mode: Int) {
        var random = SeededRandom(seed: 99)
        var tree = ResultsTree<Int, Int>(0..<5_000)
        var model = Array(0..<5_000)
        while !model.isEmpty {
            let index = mode == 0 ? 0 : (mode == 1 ? model.count - 1 : random.int(0..<model.count))
            #expect(tree.remove(at: index) == model.remove(at: index))
            if model.count % 331 == 0 { #expect(tree.invariantViolation() == nil) }
        }
        #expect(tree.isEmpty)
        #expect(tree.last == nil)
        tree.insert(1, at: 0)
        #expect(Array(tree) == [1])
    }

    /// Bulk building gives a valid tree for every size around the node capacities.
    @Test func bulkBuildIsValidAtEverySize() {
        for size in [0, 1, 47, 48, 49, 64, 65, 48 * 24, 48 * 24 + 1, 100_000] {
            let tree = ResultsTree<Int, Int>(0..<size)
            #expect(tree.count == size)
            #expect(tree.invariantViolation() == nil, "size \(size)")
            #expect(Array(tree) == Array(0..<size), "size \(size)")
            #expect(tree.last == (size > 0 ? size - 1 : nil))
        }
    }

    /// `partitioningIndex` is the lower bound in a sorted tree, for present and absent values.
    @Test func partitioningIndexIsTheLowerBound() {
        let values = (0..<20_000).map { $0 * 2 }
        let tree = ResultsTree<Int, Int>(values)
        for target in stride(from: -3, to: 40_003, by: 13) {
            let expected = values.firstIndex { $0 >= target } ?? values.count
            #expect(tree.partitioningIndex { $0 >= target } == expected, "target \(target)")
        }
    }

    /// `partitioningElement` returns the lower bound with its element; `index(of:)` finds an element from
    /// separators alone and reports one that is absent, or not where the separators lead, as `nil`.
    @Test func searchesByElementAndBySeparatorsAlone() {
        let values = (0..<20_000).map { $0 * 2 }
        let tree = ResultsTree<Int, Int>(values)
        for target in stride(from: -3, to: 40_003, by: 13) {
            let expected = values.firstIndex { $0 >= target }
            let found = tree.partitioningElement(separator: { $0 >= target }, element: { $0 >= target })
            #expect(found?.index == expected, "target \(target)")
            #expect(found?.element == expected.map { values[$0] }, "target \(target)")
            let index = tree.index(of: target, separator: { $0 >= target })
            #expect(index == (target % 2 == 0 ? expected : nil), "target \(target)")
        }
        // An element the separators place elsewhere (here: searched for as if it were smaller) is not found.
        #expect(tree.index(of: 30_000, separator: { $0 >= 10 }) == nil)
    }

    /// Iterating from any position yields the elements from there, however many are asked for.
    @Test func iteratesFromAnyPosition() {
        let tree = ResultsTree<Int, Int>(0..<3_000)
        for start in stride(from: 0, through: 3_000, by: 149) {
            for length in [0, 1, 63, 64, 65, 3_000 - start] where start + length <= 3_000 {
                #expect(
                    Array(IteratorSequence(tree.elements(in: start..<start + length))) == Array(start..<start + length))
            }
        }
    }

    /// A mutation of a copy does not show through the original, even deep in a shared subtree.
    @Test func copiesAreIndependent() {
        let original = ResultsTree<Int, Int>(0..<10_000)
        var copy = original
        copy.replace(at: 5_000, with: -1)
        copy.remove(at: 0)
        copy.insert(42, at: 9_000)
        #expect(original[5_000] == 5_000)
        #expect(original[0] == 0)
        #expect(original.count == 10_000)
        #expect(copy[4_999] == -1)
        #expect(copy.count == 10_000)
        #expect(original.invariantViolation() == nil)
        #expect(copy.invariantViolation() == nil)
    }
}
