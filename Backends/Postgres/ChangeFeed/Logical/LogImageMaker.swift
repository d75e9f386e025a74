@_spi(Backend) import FetchKit
import FetchKitBackendKit

/// Turns a ``LogTransaction`` into the change the feed publishes: the keys per table and, for the rows the log
/// holds whole, their images as a fetch of the entity reads them (``TableChange/images``).
///
/// Every table gets images, whatever its column types: the log's binary values read as a fetch reads them
/// (``LogRow``), `char(n)` text drops its padding as a fetch's cast to text does, and each value takes its
/// attribute type's canonical case (a `numeric(p, 0)` column's integer for a `double` attribute, say). Only a row
/// whose image lacks a value (an unchanged TOASTed value) is left to be re-read.
struct LogImageMaker: Sendable {
    /// How one table's rows become images: the fetch's layout (primary key, then every attribute) and, in that
    /// order, each column's name, attribute type and whether it is `char(n)`.
    struct Shape: Sendable {
        let layout: RowLayout
        let columns: [(column: String, type: AttributeType, padded: Bool)]
    }

    /// The shapes of the tables that get images, by table name.
    let shapes: [String: Shape]

    init(schema: Schema, nativeColumns: NativeColumns) {
        var shapes: [String: Shape] = [:]
        for entity in schema.entities {
            let attributes = entity.attributes  // the primary key first, as a fetch selects them
            let native = nativeColumns[entity.table] ?? [:]
            shapes[entity.table] = Shape(
                layout: RowLayout(names: attributes.map(\.name)),
                columns: attributes.map { attribute in
                    (attribute.column, attribute.type, native[attribute.column]?.keyComparison == .unpaddedText)
                })
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
        for (column, type, padded) in shape.columns {
            guard let value = row.values[column] else { return nil }
            let read = padded ? value.withoutCharPadding : value
            guard let coerced = type.coerce(read) else { return nil }
            values.append(coerced)
        }
        return Row(layout: shape.layout, values: values)
    }
}
