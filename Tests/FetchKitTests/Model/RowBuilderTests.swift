@_spi(Backend) import FetchKit
import Foundation
import Testing

@_spi(Benchmarks) @testable import FetchKit

/// Rows built together share blocks of values, yet behave exactly as rows made one by one: same values, names,
/// equality and hashes; a mutation or a repacking never changes another row.
@Suite("Row builder")
struct RowBuilderTests {
    static let layout = RowLayout(names: ["id", "title", "score", "done"])

    static func values(_ i: Int) -> [Value] {
        [
            .integer(Int64(i)), .text("row \(i) with a title longer than fifteen bytes"), .double(Double(i) / 2),
            i % 3 == 0 ? .null : .bool(i % 2 == 0)
        ]
    }

    static func build(_ count: Int, layout: RowLayout = layout) -> [Row] {
        var builder = RowBuilder(layout: layout)
        for i in 0..<count {
            for value in values(i) { builder.append(value) }
            builder.endRow()
        }
        return builder.finish()
    }

    @Test("built rows equal rows made one by one, across blocks", arguments: [0, 1, 255, 256, 257, 1_000])
    func equalToSingleRows(count: Int) {
        let rows = Self.build(count)
        #expect(rows.count == count)
        for (i, row) in rows.enumerated() {
            let single = Row(layout: Self.layout, values: Self.values(i))
            #expect(row == single)
            #expect(row.hashValue == single.hashValue)
            #expect(row.values == Self.values(i))
            #expect(row.names == Self.layout.names)
            #expect(row["title"] == Self.values(i)[1])
            #expect((0..<4).map { row.value(at: $0) } == Self.values(i))
        }
        if count > 1 { #expect(rows[0] != rows[1]) }
        let blocks = Set(rows.map { ObjectIdentifier($0.storage) })
        #expect(blocks.count == (count + 255) / 256)
    }

    @Test("a block holds fewer rows when rows are wide, and rows without columns work")
    func widths() {
        let wide = RowLayout(names: (0..<600).map { "c\($0)" })
        var builder = RowBuilder(layout: wide)
        for i in 0..<3 {
            for c in 0..<600 { builder.append(.integer(Int64(i * 1_000 + c))) }
            builder.endRow()
        }
        let rows = builder.finish()
        #expect(Set(rows.map { ObjectIdentifier($0.storage) }).count == 3)
        #expect(rows[2].value(at: 599) == .integer(2_599))
        var empty = RowBuilder(layout: RowLayout(names: []))
        for _ in 0..<300 { empty.endRow() }
        let none = empty.finish()
        #expect(none.count == 300)
        #expect(none.allSatisfy { $0.values.isEmpty && $0 == Row([]) })
    }

    @Test("setting a value changes that row alone")
    func mutation() {
        let rows = Self.build(3)
        var changed = rows[1]
        changed.set("title", to: "new")
        changed.set("extra", to: 7)
        #expect(changed["title"] == "new")
        #expect(changed["extra"] == 7)
        #expect(changed.names == Self.layout.names + ["extra"])
        #expect(rows[1] == Row(layout: Self.layout, values: Self.values(1)))
        #expect(rows[0] == Row(layout: Self.layout, values: Self.values(0)))
        #expect(rows[2] == Row(layout: Self.layout, values: Self.values(2)))
    }

    @Test("packing copies rows into blocks of their own, equal and in order, layout by layout")
    func packing() {
        let first = Self.build(600)
        let other = RowLayout(names: ["id", "name"])
        let mixed = [first[5], first[300], Row(layout: other, values: [1, "a"]), first[599], first[0]]
        let packed = RowBuilder.packing(mixed)
        #expect(packed == mixed)
        #expect(packed.allSatisfy { row in !first.contains { $0.storage === row.storage } })
        #expect(packed[0].storage === packed[1].storage)
        #expect(packed[2].storage !== packed[1].storage)
        #expect(packed[3].storage === packed[4].storage)
    }

    @Test("compacting a snapshot's storage repacks the rows that stayed, for rows and for typed objects")
    func compaction() {
        let fetched = Self.build(1_000)
        let maker = SortKeyMaker(SortKeyOrder([], primaryKey: "id"))
        let key: (Row) -> SortKey = { maker.key($0) }
        var entries = ResultsEntries<Row>(rows: fetched, objects: fetched, separator: key)
        var typed = ResultsEntries<Int>(rows: fetched, objects: Array(0..<1_000), separator: key)
        for _ in 0..<990 {
            entries.remove(at: 0, separator: key)
            typed.remove(at: 0, separator: key)
        }
        #expect(entries.isWasteful && typed.isWasteful)
        let compacted = entries.compacted(separator: key)
        let compactedTyped = typed.compacted(separator: key)
        #expect(compacted.rows == Array(fetched[990...]))
        #expect(compactedTyped.rows == Array(fetched[990...]))
        #expect((0..<10).map { compacted.object(at: $0) } == Array(fetched[990...]))
        #expect((0..<10).map { compactedTyped.object(at: $0) } == Array(990..<1_000))
        for row in compacted.rows + compactedTyped.rows {
            #expect(!fetched.contains { $0.storage === row.storage })
        }
        #expect(!compacted.isWasteful && compacted.storedCount == 10)
    }
}
