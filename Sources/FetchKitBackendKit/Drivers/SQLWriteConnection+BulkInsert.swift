import FetchKit

extension SQLWriteConnection {
    /// Inserts the rows of `batch` one statement at a time: the bulk path of a backend whose statements are
    /// cheap (an embedded database), and the fallback of one that has its own.
    ///
    /// - Complexity: O(*n*) statements.
    /// - Returns: each row's primary key: the one it gave, else the one the database assigned.
    public func insert(_ batch: SQLBulkInsert) throws -> [Value] {
        try insertEachRow(of: batch)
    }

    /// Inserts the rows of `batch` one `INSERT` each, in order; returns their primary keys.
    public func insertEachRow(of batch: SQLBulkInsert) throws -> [Value] {
        let keyType = batch.entity.primaryKey.type
        var keys: [Value] = []
        keys.reserveCapacity(batch.rowCount)
        for index in 0..<batch.rowCount {
            let statement = batch.statement(forRow: index)
            let returned = try insert(statement, keyType: keyType)
            let given = batch.key(ofRow: index)
            if !given.isNull {
                keys.append(given)
            } else if let key = returned ?? lastAssignedKey {
                keys.append(key)
            } else {
                throw FetchKitError.database(code: 0, message: "the insert returned no primary key", sql: statement.sql)
            }
        }
        return keys
    }
}
