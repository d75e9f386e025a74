extension SQLCompiler {
    /// Compiles an insert of `rows` into `entity`: every row's values checked and completed as
    /// ``insert(_:into:)`` does, ready for a backend to write in one go.
    ///
    /// - Complexity: O(*n* × *a*) for *n* rows of an entity with *a* attributes.
    /// - Throws: the errors of ``insert(_:into:)``, for the first row that has one (naming no row: the
    ///   whole insert is refused).
    public func insert(contentsOf rows: [Row], into entity: Entity) throws -> SQLBulkInsert {
        let entity = try schemaEntity(entity)
        var values: [Value] = []
        values.reserveCapacity(rows.count * entity.attributes.count)
        for row in rows { try appendInsertValues(of: row, into: entity, to: &values) }
        return try bulkInsert(values, into: entity)
    }

    /// Compiles an insert of `records` into their entity, as ``insert(contentsOf:into:)`` does for their
    /// rows, encoding each straight into the batch (no ``Row`` in between). A record whose integer key is
    /// `nil` leaves it to the database.
    ///
    /// - Complexity: O(*n* × *a*) for *n* records of an entity with *a* attributes.
    /// - Throws: the errors of ``RecordCoding/encode(_:)`` and ``insert(_:into:)``, for the first record
    ///   that has one.
    public func insert<R: Record>(contentsOf records: [R]) throws -> SQLBulkInsert {
        let entity = try schemaEntity(R.entity)
        let encoder = RecordEncoder(entity: entity)
        var values: [Value] = []
        values.reserveCapacity(records.count * entity.attributes.count)
        for record in records {
            try encoder.encode(record)
            let given = encoder.attributeValues
            for (index, attribute) in entity.attributes.enumerated() {
                try appendInsertValue(given[index], of: attribute, at: index, into: entity, to: &values)
            }
        }
        return try bulkInsert(values, into: entity)
    }

    /// The batch of `values`, checked rows of `entity`, with the statements a row-by-row backend runs.
    private func bulkInsert(_ values: [Value], into entity: Entity) throws -> SQLBulkInsert {
        let width = entity.attributes.count
        if !(nativeColumns[entity.table]?.isEmpty ?? true) {
            // Columns of database-specific types: each row compiled (and its values checked) on its own.
            let statements = try stride(from: 0, to: values.count, by: width).map { start in
                try (insertClause(values[start..<start + width], into: entity) + returningKey(of: entity))
                    .statement(in: dialect)
            }
            return SQLBulkInsert(
                entity: entity, quotedTable: quote(entity.table),
                quotedColumns: entity.attributes.map { quote($0.column) }, values: values,
                keyedSQL: nil, keylessSQL: nil, rowStatements: statements)
        }
        let keyedRow = stride(from: 0, to: values.count, by: width).first { !values[$0].isNull }
        let keylessRow = stride(from: 0, to: values.count, by: width).first { values[$0].isNull }
        return SQLBulkInsert(
            entity: entity, quotedTable: quote(entity.table), quotedColumns: entity.attributes.map { quote($0.column) },
            values: values,
            keyedSQL: try keyedRow.map { try insertSQL(values[$0..<$0 + width], into: entity) },
            keylessSQL: try keylessRow.map { try insertSQL(values[$0..<$0 + width], into: entity) })
    }

    /// The text of the `INSERT` of one row's `values`, `RETURNING` the key where the dialect can.
    private func insertSQL(_ values: ArraySlice<Value>, into entity: Entity) throws -> String {
        try (insertClause(values, into: entity) + returningKey(of: entity)).statement(in: dialect).sql
    }
}
