@_spi(Backend) import FetchKit
import FetchKitFixtures
import FetchKitTesting
import Testing

@_spi(Benchmarks) @testable import FetchKit

/// A controller's row storage stays proportional to its live rows however often they are rewritten: a
/// small controller on a busy table must not keep a thousand dead rows.
@Suite("Results storage compaction")
struct ResultsStorageCompactionTests {
    static let layout = RowLayout(names: ["id", "v"])
    static let order = SortKeyOrder(components: [.init(column: "v", ascending: false)], primaryKey: "id")

    static func row(_ id: Int64, _ v: Int64) -> Row { Row(layout: layout, values: [.integer(id), .integer(v)]) }

    @Test(arguments: [1, 10, 300])
    func deadRowsStayBoundedByTheLiveOnes(live: Int) throws {
        var table = (1...live).map { Self.row(Int64($0), 0) }
        var snapshot = ResultsSnapshot(
            rows: table, objects: table, primaryKey: Self.order.primaryKey, sectionKey: nil, order: Self.order)
        var random = SeededRandom(seed: UInt64(live))
        var largestStored = 0
        for step in 1...5_000 {
            let index = random.int(0..<live)
            table[index] = Self.row(Int64(index + 1), Int64(step % 97))
            snapshot = try Self.applying(table[index], to: snapshot)
            largestStored = max(largestStored, snapshot.entries.storedCount)
        }
        // Half the live rows and sixteen more may be dead before the next edit compacts; that edit adds one.
        #expect(largestStored <= live + live / 2 + 16 + 2)
        let expected = table.sorted { Self.order.compare($0, $1) == .orderedAscending }
        #expect(snapshot.entries.rows.map(\.values) == expected.map(\.values))
    }

    /// `snapshot` after `row` replaced the row with its key, as the incremental path edits it after a re-read.
    static func applying(_ row: Row, to snapshot: ResultsSnapshot<Row>) throws -> ResultsSnapshot<Row> {
        var editor = try #require(ResultsSnapshotEditor(snapshot, sectionKey: nil))
        let key = row[order.primaryKey] ?? .null
        let fresh = ResultsSnapshotEditor<Row>.FreshRow(row: row, object: row, sortKey: editor.sortKey(of: row))
        _ = try editor.apply(removing: [key], inserting: [fresh], limit: nil, old: snapshot)
        return editor.snapshot()
    }
}
