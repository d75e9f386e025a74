import Foundation
import FetchKitTesting
import Testing

@testable import FetchKit

/// A seedable generator (SplitMix64) so a failing run can be replayed from its seed.
typealias CountedBTreeRandom = SeededRandom

/// A sorted array of unique integers: the model the tree is checked against.
struct CountedBTreeModel {
    var elements: [Int] = []

    func lowerBound(_ value: Int) -> Int {
        var low = 0
        var high = elements.count
        while low < high {
            let middle = (low + high) / 2
            if elements[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }

    func upperBound(_ value: Int) -> Int {
        var low = 0
        var high = elements.count
        while low < high {
            let middle = (low + high) / 2
            if value < elements[middle] { high = middle } else { low = middle + 1 }
        }
        return low
    }

    func rank(_ value: Int) -> Int? {
        let index = lowerBound(value)
        return index < elements.count && elements[index] == value ? index : nil
    }
}

@Suite("CountedBTree: randomised against a sorted array")
struct CountedBTreeRandomizedTests {
    /// Runs `operations` random operations on a tree with the given capacities and checks every answer
    /// against the model; checks the structure every `checkEvery` operations. Returns the failures.
    static func run(
        seed: UInt64, operations: Int, keyRange: Int, leaf: Int, branch: Int, checkEvery: Int = 97
    ) -> [String] {
        var random = CountedBTreeRandom(seed: seed)
        let tree = CountedBTree<Int>(leafCapacity: leaf, branchCapacity: branch)
        var model = CountedBTreeModel()
        var failures: [String] = []
        func fail(_ step: Int, _ message: String) {
            if failures.count < 10 { failures.append("seed \(seed), step \(step): \(message)") }
        }
        for step in 0..<operations {
            let value = Int.random(in: 0..<keyRange, using: &random)
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<45:
                let result = tree.insert(value)
                let expected = model.rank(value)
                if let expected {
                    if result.inserted || result.rank != expected { fail(step, "insert duplicate \(value): \(result)") }
                } else {
                    let at = model.lowerBound(value)
                    model.elements.insert(value, at: at)
                    if !result.inserted || result.rank != at {
                        fail(step, "insert \(value): \(result), expected \(at)")
                    }
                }
            case 45..<75:
                let result = tree.remove(value)
                if let at = model.rank(value) {
                    model.elements.remove(at: at)
                    if result?.rank != at || result?.element != value {
                        fail(step, "remove \(value): \(String(describing: result))")
                    }
                } else if result != nil {
                    fail(step, "removed absent \(value)")
                }
            case 75..<82:
                let rank = Int.random(in: -1...(model.elements.count), using: &random)
                let removed = tree.remove(at: rank)
                let expected = model.elements.indices.contains(rank) ? model.elements.remove(at: rank) : nil
                if removed != expected { fail(step, "remove(at: \(rank)): \(String(describing: removed))") }
            case 82..<88:
                if tree.rank(of: value) != model.rank(value) { fail(step, "rank(of: \(value))") }
                if tree.find(value) != model.rank(value).map({ model.elements[$0] }) { fail(step, "find(\(value))") }
                if tree.contains(value) != (model.rank(value) != nil) { fail(step, "contains(\(value))") }
            case 88..<94:
                if tree.lowerBound(of: value) != model.lowerBound(value) { fail(step, "lowerBound(of: \(value))") }
                if tree.upperBound(of: value) != model.upperBound(value) { fail(step, "upperBound(of: \(value))") }
            default:
                let rank = Int.random(in: -2...(model.elements.count + 1), using: &random)
                let expected = model.elements.indices.contains(rank) ? model.elements[rank] : nil
                if tree.element(at: rank) != expected { fail(step, "element(at: \(rank))") }
            }
            if tree.count != model.elements.count { fail(step, "count \(tree.count) != \(model.elements.count)") }
            if step % checkEvery == 0 || step == operations - 1 {
                let problems = tree.invariantViolations()
                if !problems.isEmpty { fail(step, "invariants: \(problems.prefix(3))") }
                if Array(tree) != model.elements { fail(step, "iteration differs from the model") }
            }
            if !failures.isEmpty { break }
        }
        return failures
    }

    @Test("small nodes: deep trees exercise every split, borrow and merge", arguments: [UInt64(1), 2, 3, 4, 5, 6])
    func smallNodes(seed: UInt64) {
        let failures = Self.run(seed: seed, operations: 6_000, keyRange: 600, leaf: 4, branch: 4)
        #expect(failures.isEmpty, "replay with seed \(seed): \(failures)")
    }

    @Test("odd capacities", arguments: [UInt64(11), 12, 13])
    func oddCapacities(seed: UInt64) {
        let failures = Self.run(seed: seed, operations: 5_000, keyRange: 1_500, leaf: 5, branch: 7)
        #expect(failures.isEmpty, "replay with seed \(seed): \(failures)")
    }

    @Test("default capacities, thousands of elements", arguments: [UInt64(21), 22])
    func defaultCapacities(seed: UInt64) {
        let failures = Self.run(
            seed: seed, operations: 20_000, keyRange: 12_000, leaf: CountedBTree<Int>.defaultLeafCapacity,
            branch: CountedBTree<Int>.defaultBranchCapacity, checkEvery: 2_000)
        #expect(failures.isEmpty, "replay with seed \(seed): \(failures)")
    }

    @Test("grow to a few levels, then drain to empty")
    func growAndDrain() throws {
        let seed: UInt64 = 0xB7EE
        var random = CountedBTreeRandom(seed: seed)
        let tree = CountedBTree<Int>(leafCapacity: 4, branchCapacity: 4)
        var values = Array(0..<3_000)
        values.shuffle(using: &random)
        for value in values { tree.insert(value) }
        #expect(tree.storageStatistics.height >= 4, "seed \(seed)")
        #expect(tree.invariantViolations().isEmpty, "seed \(seed)")
        values.shuffle(using: &random)
        for (index, value) in values.enumerated() {
            let removed = tree.remove(value)
            #expect(removed?.element == value, "seed \(seed), removal \(index)")
            if index % 250 == 0 { #expect(tree.invariantViolations().isEmpty, "seed \(seed), removal \(index)") }
        }
        #expect(tree.isEmpty)
        #expect(tree.storageStatistics.height == 0)
        #expect(tree.invariantViolations().isEmpty)
    }
}

@Suite("CountedBTree: edge cases")
struct CountedBTreeEdgeCaseTests {
    @Test("an empty tree answers every question without trapping")
    func empty() {
        let tree = CountedBTree<Int>()
        #expect(tree.isEmpty && tree.count == 0)
        #expect(tree.element(at: 0) == nil && tree.element(at: -1) == nil)
        #expect(tree.rank(of: 3) == nil && tree.find(3) == nil && !tree.contains(3))
        #expect(tree.lowerBound(of: 3) == 0 && tree.upperBound(of: 3) == 0)
        #expect(tree.remove(3) == nil && tree.remove(at: 0) == nil)
        #expect(tree.first == nil && tree.last == nil)
        #expect(Array(tree).isEmpty && Array(IteratorSequence(tree.makeIterator(from: 5))).isEmpty)
        #expect(tree.invariantViolations().isEmpty)
    }

    @Test("one element")
    func one() throws {
        let tree = CountedBTree<Int>()
        #expect(tree.insert(7) == (true, 0))
        #expect(tree.rank(of: 7) == 0 && tree.element(at: 0) == 7 && tree.first == 7 && tree.last == 7)
        #expect(tree.lowerBound(of: 7) == 0 && tree.upperBound(of: 7) == 1)
        #expect(tree.lowerBound(of: 8) == 1 && tree.upperBound(of: 6) == 0)
        let removed = try #require(tree.remove(7))
        #expect(removed.element == 7 && removed.rank == 0 && tree.isEmpty)
    }

    @Test("a duplicate is not inserted and reports the existing rank")
    func duplicates() {
        let tree = CountedBTree<Int>(leafCapacity: 4, branchCapacity: 4)
        for value in stride(from: 0, to: 100, by: 2) { tree.insert(value) }
        #expect(tree.insert(40) == (false, 20))
        #expect(tree.count == 50)
        #expect(tree.insert(41) == (true, 21))
        #expect(tree.invariantViolations().isEmpty)
    }

    @Test("elements equal by key: find returns the stored one, insert keeps it")
    func payloads() throws {
        struct Entry { var key: Int; var payload: String }
        let tree = CountedBTree<Entry> { $0.key < $1.key }
        tree.insert(Entry(key: 1, payload: "one"))
        tree.insert(Entry(key: 2, payload: "two"))
        #expect(tree.insert(Entry(key: 1, payload: "uno")).inserted == false)
        #expect(tree.find(Entry(key: 1, payload: ""))?.payload == "one")
        #expect(tree.remove(Entry(key: 2, payload: ""))?.element.payload == "two")
    }

    @Test("ascending and descending runs of inserts leave full leaves")
    func runsFillLeaves() {
        let ascending = CountedBTree<Int>(leafCapacity: 16, branchCapacity: 8)
        let descending = CountedBTree<Int>(leafCapacity: 16, branchCapacity: 8)
        for value in 0..<10_000 {
            ascending.insert(value)
            descending.insert(-value)
        }
        #expect(ascending.storageStatistics.leafFill > 0.95)
        #expect(descending.storageStatistics.leafFill > 0.95)
        #expect(ascending.invariantViolations().isEmpty && descending.invariantViolations().isEmpty)
        #expect(Array(ascending) == Array(0..<10_000))
        #expect(Array(descending) == (0..<10_000).map { -$0 }.reversed())
    }

    @Test("random churn keeps leaves about three quarters full: a full leaf shares with a neighbour first")
    func churnKeepsLeavesFull() throws {
        let seed: UInt64 = 0xF111
        var random = CountedBTreeRandom(seed: seed)
        let tree = try CountedBTree(sorted: stride(from: 0, to: 40_000, by: 2))
        var present = Array(stride(from: 0, to: 40_000, by: 2))
        for _ in 0..<40_000 {
            let index = Int.random(in: present.indices, using: &random)
            tree.remove(present[index])
            var value = Int.random(in: 0..<40_000, using: &random)
            while tree.contains(value) { value = Int.random(in: 0..<40_000, using: &random) }
            tree.insert(value)
            present[index] = value
        }
        #expect(tree.count == 20_000)
        #expect(tree.storageStatistics.leafFill > 0.7, "seed \(seed): \(tree.storageStatistics)")
        #expect(tree.invariantViolations().isEmpty, "seed \(seed)")
        #expect(Array(tree) == present.sorted())
    }

    @Test("SortKey elements, short and long, against a sorted array", arguments: [UInt64(71), 72])
    func sortKeys(seed: UInt64) {
        var random = CountedBTreeRandom(seed: seed)
        let order = SortKeyOrder([.descending("title", caseInsensitive: true)], primaryKey: "id")
        let tree = CountedBTree<SortKey>(leafCapacity: 8, branchCapacity: 4)
        var model: [SortKey] = []
        let words = ["a", "B", "same prefix that is long ", "é", "z"]
        for step in 0..<3_000 {
            let title = (0..<Int.random(in: 0...4, using: &random)).map { _ in
                words.randomElement(using: &random) ?? ""
            }
            let id = Int64.random(in: 0..<50, using: &random)
            let key = order.key(values: [.text(title.joined())], primaryKey: .integer(id))
            let at = model.firstIndex { !($0 < key) } ?? model.count
            if at < model.count, model[at] == key {
                #expect(tree.remove(key)?.rank == at, "seed \(seed), step \(step)")
                model.remove(at: at)
            } else {
                #expect(tree.insert(key) == (true, at), "seed \(seed), step \(step)")
                model.insert(key, at: at)
            }
        }
        #expect(Array(tree) == model, "seed \(seed)")
        #expect(tree.invariantViolations().isEmpty, "seed \(seed)")
    }

    @Test("iteration from a rank", arguments: [0, 1, 15, 16, 17, 499, 999, 1_000, 1_001])
    func iterateFrom(rank: Int) {
        let tree = CountedBTree<Int>(leafCapacity: 4, branchCapacity: 4)
        var random = CountedBTreeRandom(seed: 99)
        for value in (0..<1_000).shuffled(using: &random) { tree.insert(value) }
        let tail = Array(IteratorSequence(tree.makeIterator(from: rank)))
        #expect(tail == Array(min(rank, 1_000)..<1_000))
    }

    @Test("removeAll empties the tree and it stays usable")
    func removeAll() {
        let tree = CountedBTree<Int>(leafCapacity: 4, branchCapacity: 4)
        for value in 0..<100 { tree.insert(value) }
        tree.removeAll()
        #expect(tree.isEmpty && tree.invariantViolations().isEmpty)
        tree.insert(5)
        #expect(Array(tree) == [5])
    }

    @Test("a custom order: descending integers")
    func customOrder() {
        let tree = CountedBTree<Int>(areInIncreasingOrder: >)
        for value in [3, 9, 1, 7] { tree.insert(value) }
        #expect(Array(tree) == [9, 7, 3, 1])
        #expect(tree.rank(of: 1) == 3 && tree.lowerBound(of: 8) == 1)
    }
}

@Suite("CountedBTree: bulk construction")
struct CountedBTreeBulkTests {
    @Test("sorted input of every awkward size builds a sound tree",
          arguments: [0, 1, 3, 4, 5, 15, 16, 17, 63, 64, 65, 257, 1_000, 4_097])
    func sizes(count: Int) throws {
        for (leaf, branch) in [(4, 4), (5, 6), (64, 32)] {
            let tree = try CountedBTree(sorted: 0..<count, leafCapacity: leaf, branchCapacity: branch)
            #expect(tree.count == count)
            #expect(tree.invariantViolations().isEmpty, "count \(count), leaf \(leaf), branch \(branch)")
            #expect(Array(tree) == Array(0..<count))
            if count > 0 {
                #expect(tree.rank(of: count / 2) == count / 2)
                #expect(tree.element(at: count - 1) == count - 1)
            }
        }
    }

    @Test("a bulk-built tree accepts inserts and removals")
    func mutateAfterBulk() throws {
        let tree = try CountedBTree(sorted: stride(from: 0, to: 20_000, by: 2), leafCapacity: 8, branchCapacity: 4)
        var model = CountedBTreeModel(elements: Array(stride(from: 0, to: 20_000, by: 2)))
        var random = CountedBTreeRandom(seed: 4242)
        for step in 0..<4_000 {
            let value = Int.random(in: 0..<20_000, using: &random)
            if step % 2 == 0 {
                let rank = tree.insert(value).rank
                if model.rank(value) == nil { model.elements.insert(value, at: model.lowerBound(value)) }
                #expect(rank == model.rank(value), "seed 4242, step \(step)")
            } else {
                let removed = tree.remove(value)?.rank
                #expect(removed == model.rank(value), "seed 4242, step \(step)")
                if let at = model.rank(value) { model.elements.remove(at: at) }
            }
        }
        #expect(tree.invariantViolations().isEmpty)
        #expect(Array(tree) == model.elements)
    }

    @Test("unsorted or duplicated input is rejected with an error")
    func rejectsUnsorted() {
        #expect(throws: FetchKitError.self) { try CountedBTree(sorted: [1, 3, 2]) }
        #expect(throws: FetchKitError.self) { try CountedBTree(sorted: [1, 2, 2, 3]) }
        #expect(throws: Never.self) { try CountedBTree(sorted: [3, 2, 1], areInIncreasingOrder: >) }
    }

    @Test("bulk-built trees are packed: leaves full, node memory close to the elements' own size")
    func packed() throws {
        let tree = try CountedBTree(sorted: 0..<100_000)
        let statistics = tree.storageStatistics
        #expect(statistics.leafFill > 0.99)
        #expect(statistics.bytesPerElement < Double(MemoryLayout<Int>.stride) * 1.15)
        #expect(statistics.leafCount == (100_000 + tree.leafCapacity - 1) / tree.leafCapacity)
    }
}
