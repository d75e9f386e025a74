/// Builds the rows of one fetch, storing their values together: one allocation per block of rows instead
/// of one array per row, so a fetched row costs its values and 16 bytes.
///
/// ```swift
/// var builder = RowBuilder(layout: RowLayout.interned(names: ["id", "title"]))
/// while try statement.step() {
///     builder.append(.integer(statement.integer(at: 0)))
///     builder.append(.text(statement.text(at: 1)))
///     builder.endRow()
/// }
/// return builder.finish()
/// ```
///
/// A block holds up to 256 rows (fewer for rows of more than four columns): a row kept alone keeps the values
/// of at most its block alive.
@_spi(Backend) public struct RowBuilder {
    /// The most values a block holds, unless a single row has more.
    static var blockValues: Int { 1_024 }
    /// The most rows a block holds.
    static var blockRows: Int { 256 }

    private let layout: RowLayout
    private let width: Int
    private let rowsPerBlock: Int
    /// The values of the rows not yet in a block.
    private var pending: [Value] = []
    private var pendingRows = 0
    private var rows: [Row] = []

    /// A builder of rows of `layout`; `expectedRows`, when known, sizes the result.
    public init(layout: RowLayout, expectedRows: Int = 0) {
        self.layout = layout
        width = layout.names.count
        rowsPerBlock = max(1, min(Self.blockRows, Self.blockValues / max(1, width)))
        rows.reserveCapacity(expectedRows)
        pending.reserveCapacity(min(max(expectedRows, 1), rowsPerBlock) * width)
    }

    /// Appends the next value of the current row.
    public mutating func append(_ value: Value) {
        pending.append(value)
    }

    /// Ends the current row, which must have one value per column.
    public mutating func endRow() {
        pendingRows += 1
        precondition(pending.count == pendingRows * width, "a row needs one value per column")
        if pendingRows == rowsPerBlock { flush() }
    }

    /// The rows built, in order.
    ///
    /// - Complexity: O(*rows* × *columns*).
    public mutating func finish() -> [Row] {
        flush()
        defer { rows = [] }
        return rows
    }

    /// Moves the pending rows into a block of their own.
    private mutating func flush() {
        guard pendingRows > 0 else { return }
        let block = RowValues.make(layout: layout, values: pending)
        for row in 0..<pendingRows { rows.append(Row(storage: block, start: row * width)) }
        pending.removeAll(keepingCapacity: true)
        pendingRows = 0
    }
}

extension RowBuilder {
    /// `rows` with their values copied into blocks of their own, in order: rows kept from several fetches
    /// then keep no values of the rows that left those fetches.
    ///
    /// - Complexity: O(*rows* × *columns*).
    static func packing(_ rows: some Sequence<Row>) -> [Row] {
        var packed: [Row] = []
        packed.reserveCapacity(rows.underestimatedCount)
        var builder: RowBuilder?
        for row in rows {
            if builder?.layout !== row.layout {
                if var finished = builder { packed += finished.finish() }
                builder = RowBuilder(layout: row.layout, expectedRows: rows.underestimatedCount - packed.count)
            }
            row.withValues { values in
                for value in values { builder?.append(value) }
            }
            builder?.endRow()
        }
        if var finished = builder { packed += finished.finish() }
        return packed
    }
}
