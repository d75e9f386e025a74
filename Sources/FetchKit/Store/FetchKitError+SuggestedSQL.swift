extension FetchKitError {
    /// This error with ``FetchKitError/Context-swift.struct/suggestedSQL`` set to `sql` (every other field kept).
    public func suggesting(_ sql: String) -> FetchKitError {
        let c = context
        return FetchKitError(
            code, message: c.message, keyPath: c.keyPath, entity: c.entity, table: c.table, offset: c.offset,
            construct: c.construct, requestName: c.requestName, knownRequestNames: c.knownRequestNames,
            section: c.section, constraint: c.constraint, constraintName: c.constraintName,
            databaseCode: c.databaseCode, sql: c.sql, underlying: c.underlying, isTransient: c.isTransient,
            suggestedSQL: sql)
    }
}
