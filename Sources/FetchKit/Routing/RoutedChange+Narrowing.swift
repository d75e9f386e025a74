extension RoutedChange {
    /// This change as one key-bounded route needs it: only `keys` of `table` (the route's entity table), with
    /// their re-read rows; the other tables and keys cannot change that route's results.
    ///
    /// A folded change names every row a burst of writes touched, and each controller of a thousand would
    /// otherwise re-examine all of them; narrowed, its work is proportional to the rows that concern it.
    ///
    /// - Complexity: O(k) for the k keys kept.
    func narrowed(to keys: Set<Value>, in table: String) -> RoutedChange {
        var copy = self
        let own = change.tables[table] ?? TableChange()
        var kept = TableChange()
        for key in keys {
            if own.inserted.contains(key) { kept.inserted.insert(key) }
            if own.updated.contains(key) { kept.updated.insert(key) }
            if own.deleted.contains(key) { kept.deleted.insert(key) }
            if let image = own.images[key] { kept.images[key] = image }
        }
        copy.change.tables = [table: kept]
        copy.rows = [:]
        if let read = rows[table] {
            var narrowed = RereadRows(keys: keys, rows: [:], relatedColumns: read.relatedColumns, followed: [:])
            narrowed.rows.reserveCapacity(keys.count)
            for key in keys { narrowed.rows[key] = read.rows[key] }
            copy.rows[table] = narrowed
        }
        return copy
    }
}
