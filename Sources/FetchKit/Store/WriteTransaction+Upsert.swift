/// A write transaction that writes rows of a resolved entity: the upserts of a record and of a row by entity
/// name are built on it once, for every store (the SQL drivers and the in-memory store alike).
public protocol EntityWriteTransaction: WriteTransaction {
    /// The entity named `name`; throws when it is unknown or the transaction has ended.
    func entity(named name: String) throws -> Entity
    /// Inserts `row` into `entity`; returns its primary key.
    func insert(_ row: Row, into entity: Entity) throws -> Value
    /// Inserts `row` into `entity`, or sets the attributes it names on the row with its primary key.
    func upsert(_ row: Row, into entity: Entity) throws
}

extension EntityWriteTransaction {
    public func upsert<R: Record>(_ record: R) throws {
        let entity = try entity(named: R.entity.name)
        let row = try RecordCoding.encode(record)
        guard let key = row[entity.primaryKey.name], !key.isNull else {
            // Without a key nothing can conflict: the store assigns one.
            _ = try insert(row.removing(entity.primaryKey.name), into: entity)
            return
        }
        try upsert(row, into: entity)
    }

    public func upsert(_ row: Row, into entityName: String) throws {
        try upsert(row, into: entity(named: entityName))
    }
}

extension Row {
    /// The row without column `name`.
    public func removing(_ name: String) -> Row {
        Row(zip(names, values).filter { $0.0 != name })
    }
}
