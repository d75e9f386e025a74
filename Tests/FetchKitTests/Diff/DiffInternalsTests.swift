import Testing

@testable import FetchKit

@Suite("Diff internals: residue table, LIS, section placement")
struct DiffInternalsTests {
    @Test("the Int64 table finds every key, extreme ones included, and the first index of a repeated key")
    func table() {
        var random = SplitMix64(seed: 0x7ab1e)
        var keys: [Int64] = [0, -1, .min, .max, 1]
        for _ in 0..<10_000 { keys.append(Int64(bitPattern: random.next())) }
        // Keys that share low bits collide in the table's home slots.
        for k in 1...200 { keys.append(Int64(k) << 40) }
        var table = Int64IndexTable(count: keys.count)
        for (index, key) in keys.enumerated() { table.insertIfAbsent(key, index: Int32(index)) }
        for (index, key) in keys.enumerated() { #expect(table.index(of: key) == Int32(index)) }
        table.insertIfAbsent(0, index: 99_999)
        #expect(table.index(of: 0) == 0)
        let present = Set(keys)
        for _ in 0..<1_000 {
            let key = Int64(bitPattern: random.next())
            if !present.contains(key) { #expect(table.index(of: key) == -1) }
        }
        let empty = Int64IndexTable(count: 0)
        #expect(empty.index(of: 42) == -1)
    }

    @Test("patience LIS marks an increasing run as long as the quadratic reference finds")
    func lis() {
        var random = SplitMix64(seed: 0x115)
        var lis = LongestIncreasingSubsequence(capacity: 64)
        for _ in 0..<2_000 {
            let count = Int(random.next() % 40)
            let values = (0..<count).map { Int32($0) }.shuffled(using: &random)
            var marks = [Bool](repeating: true, count: count)
            let length = values.withUnsafeBufferPointer { values in
                marks.withUnsafeMutableBufferPointer { lis.mark(values, isMember: $0) }
            }
            #expect(length == DiffCheck.longestIncreasing(values.map(Int.init)))
            let kept = values.indices.filter { marks[$0] }.map { values[$0] }
            #expect(kept.count == length)
            #expect(zip(kept, kept.dropFirst()).allSatisfy { $0 < $1 })
        }
    }

    @Test("LIS members of any Ints, sparse or beyond Int32, form a longest strictly increasing run")
    func lisMembers() {
        var random = SplitMix64(seed: 0x1157)
        #expect(LongestIncreasingSubsequence.members(of: []) == [])
        #expect(LongestIncreasingSubsequence.members(of: [.max, .min, 0]) == [false, true, true])
        for round in 0..<2_000 {
            let count = Int(random.next() % 40)
            // Half the rounds spread values over all of Int (ranked), half over a sparse Int32-sized range.
            let spread: (UInt64) -> Int =
                round.isMultiple(of: 2)
                ? { Int(bitPattern: UInt($0)) } : { 1_000_000 + Int($0 % 100_000_000) }
            let values = Array(Set((0..<count).map { _ in spread(random.next()) })).shuffled(using: &random)
            let members = LongestIncreasingSubsequence.members(of: values)
            let kept = values.indices.filter { members[$0] }.map { values[$0] }
            #expect(kept.count == DiffCheck.longestIncreasing(values))
            #expect(zip(kept, kept.dropFirst()).allSatisfy { $0 < $1 })
        }
    }

    @Test("section matching by name: inserted and deleted sections keep the order, swapped ones do not")
    func sectionOrder() throws {
        let kept = SectionMatching(oldNames: ["a", "b", "c"], newNames: ["b", "x", "c"])
        #expect(kept.deletes == [0])
        #expect(kept.inserts == [1])
        #expect(kept.keepsRelativeOrder)
        try kept.checkRelativeOrder()
        let swapped = SectionMatching(oldNames: ["a", "b", "c"], newNames: ["a", "c", "b"])
        #expect(!swapped.keepsRelativeOrder)
        #expect(throws: IncrementalInconsistency.self) { try swapped.checkRelativeOrder() }
    }

    @Test("section placement keeps the longest increasing run, preferring sections whose rows change")
    func sectionsKept() {
        #expect(
            LongestIncreasingSubsequence.keptInPlace(targets: [1, 0], preferring: [false, false]).filter { $0 }.count
                == 1)
        #expect(LongestIncreasingSubsequence.keptInPlace(targets: [1, 0], preferring: [true, false]) == [false, true])
        #expect(LongestIncreasingSubsequence.keptInPlace(targets: [1, 0], preferring: [false, true]) == [true, false])
        #expect(
            LongestIncreasingSubsequence.keptInPlace(targets: [2, -1, 0, 1], preferring: [true, true, true]) == [
                false, false, true, true
            ])
        #expect(LongestIncreasingSubsequence.keptInPlace(targets: [], preferring: []) == [])
    }

    @Test("rows kept in place: the most preferred first, then the longest run with them")
    func preferredRowsKept() {
        // Targets 1 and 2 form the longest run; target 0, preferred, is kept instead, with what fits around it.
        #expect(
            LongestIncreasingSubsequence.keptInPlace(targets: [1, 2, 0], preferring: [true, false, false])
                == [true, true, false])
        #expect(
            LongestIncreasingSubsequence.keptInPlace(
                targets: [1, 2, 0], preferring: [true, false, false], preferenceFirst: true) == [false, false, true])
        #expect(
            LongestIncreasingSubsequence.keptInPlace(
                targets: [1, 2, 0, 3], preferring: [true, false, false, false], preferenceFirst: true)
                == [false, false, true, true])
    }

    @Test("a row's section is found with empty sections around it")
    func sectionContaining() {
        let layout = SectionLayout(starts: [0, 0, 2, 2, 5, 5], rowCount: 5)
        #expect((0..<5).map(layout.section(containing:)) == [1, 1, 3, 3, 3])
        #expect(layout.counts == [0, 2, 0, 3, 0, 0])
    }
}
