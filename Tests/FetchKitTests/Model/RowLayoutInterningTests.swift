import Testing

@testable import FetchKit

/// Fetches of one request shape share one row layout; the table of shared layouts stops growing at its capacity.
@Suite("Row layouts, interned")
struct RowLayoutInterningTests {
    @Test func equalNamesShareOneLayoutAndOthersDoNot() {
        let names = ["id", "title", "priority", "interning-test-\(#line)"]
        let first = RowLayout.interned(names: names)
        #expect(RowLayout.interned(names: names) === first)
        #expect(first.names == names)
        #expect(first.index(of: "priority") == 2)
        #expect(RowLayout.interned(names: names.reversed()) !== first)
    }

    @Test func pastItsCapacityTheTableHandsOutLayoutsOfTheirOwn() {
        var table = InternTable<[String], RowLayout>(capacity: 2)
        let make = { (names: [String]) in RowLayout(names: names) }
        let a = table.value(for: ["a"], make: make)
        let b = table.value(for: ["b"], make: make)
        #expect(table.value(for: ["a"], make: make) === a)
        #expect(table.value(for: ["b"], make: make) === b)
        let c = table.value(for: ["c"], make: make)
        #expect(c.names == ["c"])
        #expect(table.value(for: ["c"], make: make) !== c)
        #expect(table.count == 2)
    }

    @Test func equalNameSetsShareTheirStorage() {
        let names: Set = ["todo", "category", "interning-test-\(#line)"]
        let first = names.interned()
        let second = Set(names.sorted()).interned()
        #expect(first == names && second == names)
        #expect(unsafeBitCast(first, to: UnsafeRawPointer.self) == unsafeBitCast(second, to: UnsafeRawPointer.self))
    }
}
