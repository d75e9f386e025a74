@_spi(Backend) import FetchKit
import FetchKitBackendKit

/// The ``WriteTransaction`` of an ``InMemoryStore`` write: a private copy of the tables that the write's
/// closure changes, and the log of what it changed, by table.
///
/// The store commits by making the copy the committed state and publishing the log; a rollback drops both.
/// Each operation checks everything before it changes anything, so an operation that throws leaves the copy
/// as it was (as a failed statement leaves a SQL transaction), whether or not the closure goes on.
final class InMemoryTransaction: EntityWriteTransaction {
    let schema: Schema
    /// The tables as this transaction sees them.
    var database: InMemoryDatabase
    /// What the transaction changed, by table name.
    var changes: [String: TableChange] = [:]
    /// Validates and converts values as the backends' compiler does.
    let compiler: SQLCompiler
    let dialect: SQLDialect
    private var isActive = true

    init(database: InMemoryDatabase, schema: Schema, dialect: SQLDialect) {
        self.database = database
        self.schema = schema
        self.dialect = dialect
        self.compiler = SQLCompiler(schema: schema, dialect: dialect)
    }

    /// Ends the transaction: later calls throw.
    func end() { isActive = false }

    package func entity(named name: String) throws -> Entity {
        guard isActive else {
            throw FetchKitError.unsupported("a write transaction used after its write closure returned")
        }
        return try schema.entity(named: name)
    }

    // MARK: - Insert and upsert

    func insert<R: Record>(_ record: R) throws -> R {
        let entity = try entity(named: R.entity.name)
        let keyName = entity.primaryKey.name
        var row = try RecordCoding.encode(record)
        if row[keyName]?.isNull ?? true { row = row.removing(keyName) }
        let key = try insert(row, into: entity)
        row.set(keyName, to: key)
        return try RecordCoding.decode(R.self, from: row)
    }

    func insert(_ row: Row, into entityName: String) throws -> Value {
        try insert(row, into: entity(named: entityName))
    }

    package func insert(_ row: Row, into entity: Entity) throws -> Value {
        var values = try insertValues(row, into: entity)
        var table = database.tables[entity.name] ?? InMemoryTable(entity: entity)
        if values[0].isNull { values[0] = try table.assignKey() }
        let key = values[0]
        guard table.rows[key] == nil else {
            throw FetchKitError.constraintViolation(
                .primaryKey, name: "\(entity.table)_pkey",
                message: "\(entity.name) already has a row with primary key \(key)")
        }
        let stored = Row(layout: table.layout, values: values)
        try checkForeignKeys(of: stored, in: entity)
        table.noteKey(key)
        table.rows[key] = stored
        database.tables[entity.name] = table
        record(.insert, key: key, in: entity, rows: [stored])
        return key
    }

    /// Inserts `row`, or sets the attributes it names on the row with its key (`ON CONFLICT DO UPDATE`): the
    /// whole insert is checked first, as the backends check the row they would insert.
    package func upsert(_ row: Row, into entity: Entity) throws {
        let values = try insertValues(row, into: entity)
        guard !values[0].isNull, var existing = database.row(of: entity.name, key: values[0]) else {
            _ = try insert(row, into: entity)
            return
        }
        let named = entity.attributes.indices.dropFirst().filter { row[entity.attributes[$0].name] != nil }
        guard !named.isEmpty else { return }
        for index in named { existing.set(entity.attributes[index].name, to: values[index]) }
        try replace(existing, in: entity)
    }

    /// The value of every attribute of `entity` for an insert of `row`, checked: the row's, else the default,
    /// else `NULL` (an integer key left `NULL` for the store to assign).
    private func insertValues(_ row: Row, into entity: Entity) throws -> [Value] {
        var values: [Value] = []
        try compiler.appendInsertValues(of: row, into: entity, to: &values)
        return values
    }

    // MARK: - Update and delete

    func update<R: Record>(_ record: R) throws {
        let entity = try entity(named: R.entity.name)
        let row = try RecordCoding.encode(record)
        let keyName = entity.primaryKey.name
        guard let key = row[keyName], !key.isNull else {
            throw FetchKitError.recordMapping(
                entity: entity.name, detail: "cannot update a record without a primary key ('\(keyName)' is nil)")
        }
        let values = row.removing(keyName)
        let changed =
            values.names.isEmpty
            ? database.row(of: entity.name, key: try compiler.primaryKey(key, of: entity)) != nil
            : try update(entity, key: key, set: values)
        guard changed else {
            throw FetchKitError.recordMapping(entity: entity.name, detail: "no row has primary key \(key) to update")
        }
    }

    func update(_ entityName: String, key: Value, set values: Row) throws -> Bool {
        try update(entity(named: entityName), key: key, set: values)
    }

    private func update(_ entity: Entity, key: Value, set values: Row) throws -> Bool {
        let key = try compiler.primaryKey(key, of: entity)
        let assignments = try compiler.assignments(of: values, to: entity, keeping: key)
        guard var row = database.row(of: entity.name, key: key) else { return false }
        for (attribute, value) in assignments { row.set(attribute.name, to: value) }
        try replace(row, in: entity)
        return true
    }

    func update(_ entityName: String, where predicate: FetchPredicate, set values: Row) throws -> Int {
        let entity = try entity(named: entityName)
        let assignments = try compiler.assignments(of: values, to: entity, keeping: nil)
        let rows = try matching(entity, predicate)
        try atomically {
            for var row in rows {
                for (attribute, value) in assignments { row.set(attribute.name, to: value) }
                try replace(row, in: entity)
            }
        }
        return rows.count
    }

    func delete<R: Record>(_ record: R) throws -> Bool {
        let entity = try entity(named: R.entity.name)
        let row = try RecordCoding.encode(record)
        guard let key = row[entity.primaryKey.name], !key.isNull else { return false }
        return try delete(entity, keys: [try compiler.primaryKey(key, of: entity)]) > 0
    }

    func delete(_ entityName: String, key: Value) throws -> Bool {
        let entity = try entity(named: entityName)
        return try delete(entity, keys: [try compiler.primaryKey(key, of: entity)]) > 0
    }

    func delete(_ entityName: String, where predicate: FetchPredicate) throws -> Int {
        let entity = try entity(named: entityName)
        let keyName = entity.primaryKey.name
        return try delete(entity, keys: try matching(entity, predicate).map { $0[keyName] ?? .null })
    }

    // MARK: - Raw SQL and fetches

    /// Throws ``FetchKitError/Code/unsupported``: the in-memory store runs no SQL.
    func execute(_ sql: String, _ bindings: [Value]) throws -> Int {
        guard isActive else {
            throw FetchKitError.unsupported("a write transaction used after its write closure returned")
        }
        throw FetchKitError.unsupported(
            "the in-memory store runs no SQL (\(sql)); write through insert, update, upsert and delete")
    }

    func fetch(_ request: AnyFetchRequest) throws -> [Row] {
        _ = try entity(named: request.entityName)
        return try database.fetch(request, schema: schema, dialect: dialect)
    }

    func fetch<R: Record>(_ request: AnyFetchRequest, as type: R.Type) throws -> [R] {
        _ = try entity(named: request.entityName)
        return try InMemoryStore.decode(database.fetch(request, schema: schema, dialect: dialect), request, as: R.self)
    }

    // MARK: - Rows

    /// The rows of `entity` that `predicate` selects, in this transaction's state.
    private func matching(_ entity: Entity, _ predicate: FetchPredicate) throws -> [Row] {
        let predicate = try predicate.validated(for: entity, in: schema)
        return try InMemoryEvaluator(database: database, schema: schema, dialect: dialect)
            .rows(of: entity, matching: predicate)
    }

    /// Stores `row` over the row with its key, after checking its foreign keys.
    private func replace(_ row: Row, in entity: Entity) throws {
        try checkForeignKeys(of: row, in: entity)
        let key = row[entity.primaryKey.name] ?? .null
        let old = database.tables[entity.name]?.rows.updateValue(row, forKey: key)
        record(.update, key: key, in: entity, rows: [old, row])
    }

    /// Runs `body`, one statement of several row changes: when it throws, the tables and the log are as they
    /// were before it (a savepoint rolled back).
    func atomically<T>(_ body: () throws -> T) throws -> T {
        let before = (database, changes)
        do {
            return try body()
        } catch {
            (database, changes) = before
            throw error
        }
    }

    /// Records `operation` on the row with `key`, and the foreign keys the schema's to-many relationships follow
    /// of the row's states before and after it (`rows`).
    func record(_ operation: TableChange.Operation, key: Value, in entity: Entity, rows: [Row?]) {
        var change = changes.removeValue(forKey: entity.table) ?? TableChange()
        change.record(operation, key: key)
        for attribute in schema.referencedForeignKeys(of: entity) {
            for row in rows { change.recordReference(row?[attribute.name] ?? .null, attribute: attribute.name) }
        }
        changes[entity.table] = change
    }
}
