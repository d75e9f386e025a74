import FetchKitBackendKit

/// Bulk inserts: all of the call's rows, or (when one fails) none of them, the transaction going on.
extension InMemoryTransaction {
    /// Inserts `records` in order; when one fails, none of them stays inserted.
    ///
    /// - Complexity: O(*n*) in the number of records.
    func insert<R: Record>(contentsOf records: [R]) throws -> [R] {
        _ = try entity(named: R.entity.name)
        return try atomically { try records.map { try insert($0) } }
    }

    /// Inserts `rows` into `entity` in order; when one fails, none of them stays inserted.
    ///
    /// - Complexity: O(*n*) in the number of rows.
    func insert(contentsOf rows: [Row], into entity: String) throws -> [Value] {
        _ = try self.entity(named: entity)
        return try atomically { try rows.map { try insert($0, into: entity) } }
    }
}
