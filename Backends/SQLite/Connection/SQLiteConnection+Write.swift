import FetchKitBackendKit

/// The writer connection as a ``SQLWriteConnection``, so the shared ``SQLWriteTransaction`` runs on it.
extension SQLiteConnection: SQLWriteConnection {
    var lastAssignedKey: Value? { .integer(lastInsertRowID) }

    func insert(_ statement: SQLStatement, keyType: AttributeType) throws -> Value? {
        try withStatement(statement.sql) { prepared in
            try prepared.bind(statement.bindings)
            guard try prepared.step() else { return nil }
            let key = prepared.value(at: 0, as: keyType)
            while try prepared.step() {}
            return key
        }
    }

    func changedRows(_ statement: SQLStatement) throws -> Int {
        let before = totalChanges
        try run(statement.sql, statement.bindings)
        // sqlite3_changes() keeps the count of the last INSERT/UPDATE/DELETE: report it only when this
        // statement changed something, so a SELECT or DDL returns 0.
        return totalChanges == before ? 0 : changes
    }
}
