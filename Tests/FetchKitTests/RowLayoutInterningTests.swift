import Testing

@testable @_spi(Backend) import FetchKit

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
        var table = InternedLayouts(capacity: 2)
        let a = table.layout(for: ["a"])
        let b = table.layout(for: ["b"])
        #expect(table.layout(for: ["a"]) === a)
        #expect(table.layout(for: ["b"]) === b)
        let c = table.layout(for: ["c"])
        #expect(c.names == ["c"])
        #expect(table.layout(for: ["c"]) !== c)
        #expect(table.count == 2)
    }
}
