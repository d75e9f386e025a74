extension FetchKitError {
    /// The error placed at `offset` in the format string when it has no position of its own: a construct the
    /// compiler refuses, or a constant that does not compute, reported where its comparison starts.
    public func located(at offset: Int?) -> FetchKitError {
        guard let offset, self.offset == nil else { return self }
        let c = context
        return FetchKitError(
            code, message: c.message, keyPath: c.keyPath, entity: c.entity, table: c.table, offset: offset,
            construct: c.construct, requestName: c.requestName, knownRequestNames: c.knownRequestNames,
            section: c.section, constraint: c.constraint, constraintName: c.constraintName,
            databaseCode: c.databaseCode, sql: c.sql, underlying: c.underlying, isTransient: c.isTransient)
    }
}
