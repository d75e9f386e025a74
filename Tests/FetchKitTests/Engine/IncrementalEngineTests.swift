@_spi(Backend) import FetchKit
import FetchKitFixtures
import FetchKitTesting
import Testing

@_spi(Benchmarks) @testable import FetchKit

/// The incremental engine alone (no database): a snapshot edited by ``ResultsSnapshotEditor`` and the batch
/// ``LocalChangeset`` derives, against a model that re-sorts every row, on random multi-row changes to
/// sectioned and limited results.
@Suite("Incremental engine: editor + local changeset against a re-sorting model")
struct IncrementalEngineTests {
    static let layout = RowLayout(names: ["id", "section", "score", "payload"])
    static let sections: [Value] = [.null, .text("A"), .text("B"), .text("C"), .text("D")]

    static func row(_ id: Int64, _ random: inout SeededRandom) -> Row {
        Row(
            layout: layout,
            values: [
                .integer(id), sections[random.int(0..<sections.count)],
                random.int(0..<6) == 0 ? .null : .integer(Int64(random.int(0..<40))), .integer(Int64(random.int(0..<3)))
            ])
    }

    /// The first `limit` rows of `table` in `order`, as a snapshot.
    static func snapshot(_ table: [Row], order: SortKeyOrder, limit: Int?) -> ResultsSnapshot<Row> {
        var sorted = table.sorted { order.compare($0, $1) == .orderedAscending }
        if let limit { sorted = Array(sorted.prefix(limit)) }
        return ResultsSnapshot(rows: sorted, objects: sorted, primaryKey: "id", sectionKey: "section", order: order)
    }

    @Test(arguments: [(true, nil), (false, nil), (true, 12), (false, 7)] as [(Bool, Int?)])
    func randomChangesMatchTheModel(ascending: Bool, limit: Int?) throws {
        let seed: UInt64 = ascending ? 11 : 12
        var random = SeededRandom(seed: seed &+ UInt64(limit ?? 0))
        let order = SortKeyOrder(
            components: [.init(column: "section"), .init(column: "score", ascending: ascending)], primaryKey: "id")
        var table: [Int64: Row] = [:]
        for id in 1...60 { table[Int64(id)] = Self.row(Int64(id), &random) }
        var current = Self.snapshot(Array(table.values), order: order, limit: limit)
        var nextID: Int64 = 61
        for step in 0..<1_500 {
            // One transaction: a few inserts, deletes and updates (some that change nothing).
            var named: Set<Value> = []
            for _ in 0..<random.int(1...4) {
                switch random.int(0..<4) {
                case 0:
                    table[nextID] = Self.row(nextID, &random)
                    named.insert(.integer(nextID))
                    nextID += 1
                case 1:
                    guard let id = table.keys.sorted().randomElement(using: &random) else { continue }
                    table[id] = nil
                    named.insert(.integer(id))
                default:
                    guard let id = table.keys.sorted().randomElement(using: &random) else { continue }
                    table[id] = random.int(0..<5) == 0 ? table[id] : Self.row(id, &random)
                    named.insert(.integer(id))
                }
            }
            let expected = Self.snapshot(Array(table.values), order: order, limit: limit)
            // What the database would return for the re-read: the named rows, all matching, in order.
            let fresh = named.compactMap { key in Int64.fromDatabaseValue(key).flatMap { table[$0] } }
                .sorted { order.compare($0, $1) == .orderedAscending }
            var editor = try #require(ResultsSnapshotEditor(current, sectionKey: "section"))
            let stored = editor.entries
            #expect(stored.storedCount - stored.count <= stored.count / 2 + 1_024, "step \(step): storage compacted")
            let freshRows = fresh.map {
                ResultsSnapshotEditor<Row>.FreshRow(row: $0, object: $0, sortKey: order.key($0))
            }
            var pending: ResultsSnapshotEditor<Row>.PendingChange
            do {
                pending = try editor.apply(removing: named, inserting: freshRows, limit: limit, old: current)
            } catch {
                let rows = current.fetchedObjects.map { $0.values.map(\.description).joined(separator: "|") }
                let freshRows = fresh.map { $0.values.map(\.description).joined(separator: "|") }
                Issue.record(
                    """
                    step \(step): \(error); sections \(current.sectionNames) \(current.sectionCounts); rows \(rows); \
                    fresh \(freshRows); named \(named)
                    """
                )
                return
            }
            if pending.missing > 0, let boundary = pending.boundary {
                // The keyset query: the rows after the old window's last row.
                let after = table.values.filter { order.compare($0, boundary) == .orderedDescending }
                    .sorted { order.compare($0, $1) == .orderedAscending }.prefix(pending.missing)
                try editor.refill(&pending, with: after.map { .init(row: $0, object: $0, sortKey: order.key($0)) })
            }
            let next = editor.snapshot()
            let changeset = try LocalChangeset.make(
                from: current, to: next, items: try editor.items(of: pending, old: current))
            let context = "seed \(seed), step \(step), named \(named.sorted { $0.description < $1.description })"
            #expect(next.fetchedObjects == expected.fetchedObjects, "\(context)")
            #expect(next.sections.map(\.name) == expected.sections.map(\.name), "\(context)")
            #expect(next.entries.invariantViolation(separator: { order.key($0) }) == nil, "\(context)")
            #expect(changeset.rowMoves.count <= named.count, "\(context): moves only rows the change named")
            do {
                try ResultsOracle.check(
                    ResultsBatch(previous: current, snapshot: next, changeset: changeset, transactionID: nil),
                    primaryKey: "id")
            } catch {
                Issue.record("\(context): \(error)")
                return
            }
            for key in named {
                #expect(next.rowPath(forKey: key) == expected.rowPath(forKey: key), "\(context), key \(key)")
            }
            current = next
        }
    }

    /// A row updated in place, again and again past the point where the editor compacts the storage, is one
    /// update every time: the handles a change records belong to the storage its snapshot ends up with.
    @Test func updatesStayExactAcrossCompactions() throws {
        let order = SortKeyOrder(components: [.init(column: "score")], primaryKey: "id")
        let rows = (0..<20).map {
            Row(layout: Self.layout, values: [.integer(Int64($0)), .null, .integer(Int64($0)), .integer(0)])
        }
        var current = ResultsSnapshot(rows: rows, objects: rows, primaryKey: "id", sectionKey: nil, order: order)
        var compactions = 0
        for step in 1...2_500 {
            let id = Int64(step % 20)
            let updated = Row(layout: Self.layout, values: [.integer(id), .null, .integer(id), .integer(Int64(step))])
            var editor = try #require(ResultsSnapshotEditor(current, sectionKey: nil))
            if editor.entries.storedCount < current.entries.storedCount { compactions += 1 }
            let pending = try editor.apply(
                removing: [.integer(id)],
                inserting: [.init(row: updated, object: updated, sortKey: order.key(updated))],
                limit: nil, old: current)
            let items = try editor.items(of: pending, old: current)
            let next = editor.snapshot()
            let changeset = try LocalChangeset.make(from: current, to: next, items: items)
            #expect(
                changeset.rowUpdates == [
                    .init(from: RowPath(section: 0, row: Int(id)), to: RowPath(section: 0, row: Int(id)))
                ],
                "step \(step)")
            #expect(changeset.changeCount == 1, "step \(step)")
            try ResultsOracle.check(
                ResultsBatch(previous: current, snapshot: next, changeset: changeset, transactionID: nil),
                primaryKey: "id")
            current = next
        }
        #expect(compactions >= 2)
    }

    /// Moving one row of 10,000 is one move, and nothing else is reported.
    @Test func oneMovedRowIsOneMove() throws {
        let order = SortKeyOrder(components: [.init(column: "score")], primaryKey: "id")
        let rows = (0..<10_000).map {
            Row(layout: Self.layout, values: [.integer(Int64($0)), .null, .integer(Int64($0)), .integer(0)])
        }
        let old = ResultsSnapshot(rows: rows, objects: rows, primaryKey: "id", sectionKey: nil, order: order)
        var editor = try #require(ResultsSnapshotEditor(old, sectionKey: nil))
        let moved = Row(layout: Self.layout, values: [.integer(10), .null, .integer(20_000), .integer(0)])
        let pending = try editor.apply(
            removing: [.integer(10)], inserting: [.init(row: moved, object: moved, sortKey: order.key(moved))],
            limit: nil, old: old)
        let changeset = try LocalChangeset.make(
            from: old, to: editor.snapshot(), items: try editor.items(of: pending, old: old))
        #expect(
            changeset.rowMoves == [
                .init(from: RowPath(section: 0, row: 10), to: RowPath(section: 0, row: 9_999), isUpdated: true)
            ])
        #expect(changeset.changeCount == 1)
    }
}
