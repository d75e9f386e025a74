import FetchKit

extension SQLWriteTransaction {
    /// Inserts `records` through the connection's bulk path; returns them with the keys the store assigned.
    ///
    /// Records that give their key come back as they were; the others are decoded again with their key.
    package func insert<R: Record>(contentsOf records: [R]) throws -> [R] {
        let entity = try entity(named: R.entity.name)
        let keyName = entity.primaryKey.name
        let rows = try records.map { try RecordCoding.encode($0) }
        let keys = try insert(contentsOf: rows, into: entity)
        var inserted = records
        for index in rows.indices where rows[index][keyName]?.isNull ?? true {
            var row = rows[index]
            row.set(keyName, to: keys[index])
            inserted[index] = try RecordCoding.decode(R.self, from: row)
        }
        return inserted
    }

    package func insert(contentsOf rows: [Row], into entityName: String) throws -> [Value] {
        try insert(contentsOf: rows, into: entity(named: entityName))
    }

    /// Compiles `rows` and hands them to the connection. Keys the rows choose are noted (and reported
    /// before the database picks any key for the entity), as single inserts do.
    private func insert(contentsOf rows: [Row], into entity: Entity) throws -> [Value] {
        guard !rows.isEmpty else { return [] }
        let batch = try compiler.insert(contentsOf: rows, into: entity)
        if let chosen = batch.largestGivenKey { noteChosenKey(.integer(chosen), of: entity) }
        if batch.keylessRowCount > 0 { try reportChosenKey(of: entity.name) }
        return try connection.insert(batch)
    }
}
