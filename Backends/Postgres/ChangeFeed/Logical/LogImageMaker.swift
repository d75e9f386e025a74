@_spi(Backend) import FetchKit
import FetchKitBackendKit

/// Turns a ``LogTransaction`` into the change the feed publishes: the keys per table and, for the rows the log
/// holds whole, their images as a fetch of the entity reads them (``TableChange/images``).
///
/// Only tables whose every column reads as it is get images: a column that a fetch reads through a cast or a
/// time-zone conversion (an enum, `citext`, `char(n)`, `numeric`, `timestamp`, …, see ``NativeColumn``) would
/// read differently from the log, so those tables' keys are re-read instead.
struct LogImageMaker: Sendable {
    /// How one table's rows become images: the fetch's layout (primary key, then every attribute) and, in that
    /// order, each column's name and attribute type.
    struct Shape: Sendable {
        let layout: RowLayout
        let columns: [(column: String, type: AttributeType)]
    }

    /// The shapes of the tables that get images, by table name.
    let shapes: [String: Shape]

    init(schema: Schema, nativeColumns: NativeColumns) {
        var shapes: [String: Shape] = [:]
        for entity in schema.entities {
            let attributes = entity.attributes  // the primary key first, as a fetch selects them
            let native = nativeColumns[entity.table] ?? [:]
            guard attributes.allSatisfy({ native[$0.column].map { $0.reading == .native } ?? true }) else { continue }
            shapes[entity.table] = Shape(
                layout: RowLayout(names: attributes.map(\.name)), columns: attributes.map { ($0.column, $0.type) })
        }
        self.shapes = shapes
    }

    /// The tables `transaction` changed, with the images of the rows it holds whole and of the rows it deleted.
    ///
    /// - Complexity: O(r) for the r rows of the transaction.
    func changes(of transaction: LogTransaction) -> [String: TableChange] {
        var tables = transaction.tables
        for (table, change) in transaction.tables where !change.isWholeTable {
            guard let shape = shapes[table] else { continue }
            var images: [Value: TableChange.Image] = [:]
            images.reserveCapacity(change.inserted.count + change.updated.count + change.deleted.count)
            for key in change.deleted { images[key] = .absent }
            for (key, row) in transaction.rows[table] ?? [:] {
                if let image = self.image(row, shape) { images[key] = .row(image) }
            }
            tables[table]?.images = images
        }
        return tables
    }

    /// The row as a fetch returns it, or `nil` when the log's image lacks a value.
    private func image(_ row: LogRow, _ shape: Shape) -> Row? {
        guard row.missing.isEmpty else { return nil }
        var values: [Value] = []
        values.reserveCapacity(shape.columns.count)
        for (column, type) in shape.columns {
            guard let value = row.values[column] else { return nil }
            values.append(type.coerce(value) ?? value)
        }
        return Row(layout: shape.layout, values: values)
    }
}
