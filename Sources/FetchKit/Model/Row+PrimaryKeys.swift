extension Row {
    /// The value of `primaryKey` in each of `rows` (`.null` where a row lacks it), in order.
    ///
    /// - Complexity: O(n). Rows fetched together share a layout: the key's column is looked up once per
    ///   layout, not per row.
    static func primaryKeys(of rows: [Row], primaryKey: String) -> [Value] {
        var keys: [Value] = []
        keys.reserveCapacity(rows.count)
        var layout: RowLayout?
        var column: Int?
        for row in rows {
            if row.layout !== layout {
                layout = row.layout
                column = row.layout.index(of: primaryKey)
            }
            keys.append(column.map { row.value(at: $0) } ?? .null)
        }
        return keys
    }
}
