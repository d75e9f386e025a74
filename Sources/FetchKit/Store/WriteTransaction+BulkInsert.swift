extension WriteTransaction {
    /// Inserts `records` one at a time: the behaviour for a backend without a bulk path of its own.
    ///
    /// - Complexity: O(*n*) statements.
    @discardableResult
    public func insert<R: Record>(contentsOf records: [R]) throws -> [R] {
        try records.map { try insert($0) }
    }

    /// Inserts `rows` one at a time: the behaviour for a backend without a bulk path of its own.
    ///
    /// - Complexity: O(*n*) statements.
    @discardableResult
    public func insert(contentsOf rows: [Row], into entity: String) throws -> [Value] {
        try rows.map { try insert($0, into: entity) }
    }
}
