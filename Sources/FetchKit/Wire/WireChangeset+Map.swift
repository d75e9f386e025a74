extension WireChangeset {
    /// The same changeset with each object transformed — what a server sends when a client may see only part
    /// of each record.
    ///
    /// ```swift
    /// let visible = WireChangeset(batch).map { todo in TodoView(id: todo.id, title: todo.title) }
    /// ```
    public func map<T: Sendable, Failure: Error>(
        _ transform: (Object) throws(Failure) -> T
    ) throws(Failure) -> WireChangeset<T> {
        var sections: [WireChangeset<T>.SectionInsert] = []
        sections.reserveCapacity(sectionInserts.count)
        for insert in sectionInserts {
            var objects: [T] = []
            objects.reserveCapacity(insert.objects.count)
            for object in insert.objects { objects.append(try transform(object)) }
            sections.append(.init(index: insert.index, name: insert.name, objects: objects))
        }
        var inserts: [WireChangeset<T>.RowInsert] = []
        for insert in rowInserts { inserts.append(.init(at: insert.at, object: try transform(insert.object))) }
        var moves: [WireChangeset<T>.RowMove] = []
        for move in rowMoves {
            let object: T? = if let changed = move.object { try transform(changed) } else { nil }
            moves.append(.init(from: move.from, to: move.to, object: object))
        }
        var updates: [WireChangeset<T>.RowUpdate] = []
        for update in rowUpdates {
            updates.append(.init(from: update.from, to: update.to, object: try transform(update.object)))
        }
        return WireChangeset<T>(
            version: version, transactionID: transactionID, sectionCountsBefore: sectionCountsBefore,
            sectionCountsAfter: sectionCountsAfter, sectionDeletes: sectionDeletes, sectionInserts: sections,
            sectionMoves: sectionMoves, rowDeletes: rowDeletes, rowInserts: inserts, rowMoves: moves,
            rowUpdates: updates)
    }
}
