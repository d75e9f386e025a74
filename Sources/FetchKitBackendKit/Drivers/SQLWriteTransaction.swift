@_spi(Backend) import FetchKit

/// The ``WriteTransaction`` a store's write closure receives, for any backend whose connection is a
/// ``SQLWriteConnection``: it runs the compiler's statements on the writer connection, inside the store's
/// transaction (which the store begins and ends).
///
/// Confined to the writer thread and valid only while the closure runs.
public final class SQLWriteTransaction<Connection: SQLWriteConnection>: EntityWriteTransaction {
    /// The entities the transaction writes.
    public let schema: Schema
    let connection: Connection
    let compiler: SQLCompiler
    private var isActive = true
    /// The largest integer primary key the caller chose, per entity, not yet reported to the connection
    /// (``SQLWriteConnection/didWrite(explicitKey:into:dialect:)``): reported once, before the database next
    /// picks a key for that entity or before the commit, not after every insert.
    private var chosenKeys: [String: (entity: Entity, key: Int64)] = [:]

    /// A transaction on `connection` (inside the transaction the store began), compiling with `compiler`.
    public init(connection: Connection, compiler: SQLCompiler) {
        self.connection = connection
        self.compiler = compiler
        self.schema = compiler.schema
    }

    /// Reports the keys the caller chose to the connection; the store calls it just before `COMMIT`.
    public func finish() throws {
        for name in chosenKeys.keys.sorted() { try reportChosenKey(of: name) }
    }

    /// Marks the transaction over: later calls throw.
    public func end() {
        isActive = false
    }

    /// The schema's entity `name`; throws when it is unknown or the transaction has ended.
    public func entity(named name: String) throws -> Entity {
        guard isActive else {
            throw FetchKitError.unsupported("a write transaction used after its write closure returned")
        }
        return try schema.entity(named: name)
    }

    // MARK: - Insert

    /// See `WriteTransaction`; runs on this transaction's connection.
    public func insert<R: Record>(_ record: R) throws -> R {
        let entity = try entity(named: R.entity.name)
        let keyName = entity.primaryKey.name
        var row = try RecordCoding.encode(record)
        if row[keyName]?.isNull ?? true {
            row = row.removing(keyName)
        }
        let key = try insert(row, into: entity)
        row.set(keyName, to: key)
        return try RecordCoding.decode(R.self, from: row)
    }

    /// See `WriteTransaction`; runs on this transaction's connection.
    public func insert(_ row: Row, into entityName: String) throws -> Value {
        try insert(row, into: entity(named: entityName))
    }

    /// Inserts `row` into `entity`, returning its primary key (assigned by the database when `row` has none).
    public func insert(_ row: Row, into entity: Entity) throws -> Value {
        let statement = try compiler.insert(row, into: entity)
        let keyType = entity.primaryKey.type
        let given = row[entity.primaryKey.name].flatMap { $0.isNull ? nil : keyType.coerce($0) ?? $0 }
        // The database is about to choose a key: it must know the ones chosen so far.
        if given == nil { try reportChosenKey(of: entity.name) }
        // INSERT … RETURNING the key, where the dialect can.
        let returned = try connection.insert(statement, keyType: keyType)
        if let given { noteChosenKey(given, of: entity) }
        if let key = returned ?? given { return key }
        guard let assigned = connection.lastAssignedKey else {
            throw FetchKitError.database(code: 0, message: "the insert returned no primary key", sql: statement.sql)
        }
        return assigned
    }

    // MARK: - Upsert

    /// Inserts `row` into `entity`, or sets the attributes it names on the row with its primary key.
    public func upsert(_ row: Row, into entity: Entity) throws {
        try run(compiler.upsert(row, into: entity))
        if let key = row[entity.primaryKey.name], !key.isNull {
            noteChosenKey(entity.primaryKey.type.coerce(key) ?? key, of: entity)
        }
    }

    func noteChosenKey(_ key: Value, of entity: Entity) {
        guard case .integer(let integer) = key else { return }
        if let known = chosenKeys[entity.name], known.key >= integer { return }
        chosenKeys[entity.name] = (entity, integer)
    }

    func reportChosenKey(of entityName: String) throws {
        guard let chosen = chosenKeys.removeValue(forKey: entityName) else { return }
        try connection.didWrite(explicitKey: .integer(chosen.key), into: chosen.entity, dialect: compiler.dialect)
    }

    // MARK: - Update

    /// See `WriteTransaction`; runs on this transaction's connection.
    public func update<R: Record>(_ record: R) throws {
        let entity = try entity(named: R.entity.name)
        let row = try RecordCoding.encode(record)
        let keyName = entity.primaryKey.name
        guard let key = row[keyName], !key.isNull else {
            throw FetchKitError.recordMapping(
                entity: entity.name,
                detail: "cannot update a record without a primary key (\(SafeText.quoted(keyName)) is nil)")
        }
        let values = row.removing(keyName)
        let changed = values.names.isEmpty ? try exists(entity, key: key) : try update(entity, key: key, set: values)
        guard changed else {
            throw FetchKitError.recordMapping(entity: entity.name, detail: "no row has primary key \(key) to update")
        }
    }

    /// See `WriteTransaction`; runs on this transaction's connection.
    public func update(_ entityName: String, key: Value, set values: Row) throws -> Bool {
        try update(entity(named: entityName), key: key, set: values)
    }

    private func update(_ entity: Entity, key: Value, set values: Row) throws -> Bool {
        try run(compiler.update(entity, key: key, set: values)) > 0
    }

    /// See `WriteTransaction`; runs on this transaction's connection.
    public func update(_ entityName: String, where predicate: FetchPredicate, set values: Row) throws -> Int {
        try run(compiler.update(entity(named: entityName), where: predicate, set: values))
    }

    private func exists(_ entity: Entity, key: Value) throws -> Bool {
        let request = AnyFetchRequest(
            entity: entity.name,
            predicate: .comparison(.init(.key(.init(entity.primaryKey.name)), .equal, .value(key))),
            fetchLimit: 1)
        return try connection.count(compiler.count(request)) > 0
    }

    // MARK: - Delete

    /// See `WriteTransaction`; runs on this transaction's connection.
    public func delete<R: Record>(_ record: R) throws -> Bool {
        let entity = try entity(named: R.entity.name)
        let row = try RecordCoding.encode(record)
        guard let key = row[entity.primaryKey.name], !key.isNull else { return false }
        return try run(compiler.delete(entity, key: key)) > 0
    }

    /// See `WriteTransaction`; runs on this transaction's connection.
    public func delete(_ entityName: String, key: Value) throws -> Bool {
        try run(compiler.delete(entity(named: entityName), key: key)) > 0
    }

    /// See `WriteTransaction`; runs on this transaction's connection.
    public func delete(_ entityName: String, where predicate: FetchPredicate) throws -> Int {
        try run(compiler.delete(entity(named: entityName), where: predicate))
    }

    // MARK: - Raw SQL and fetches

    /// See `WriteTransaction`; runs on this transaction's connection.
    public func execute(_ sql: String, _ bindings: [Value]) throws -> Int {
        guard isActive else {
            throw FetchKitError.unsupported("a write transaction used after its write closure returned")
        }
        // The store owns the transaction: raw SQL must not commit or roll it back behind its back.
        guard !SQLText.controlsTransaction(sql) else {
            throw FetchKitError.unsupported(
                "execute cannot begin, commit or roll back the write's transaction (\(sql)); "
                    + "return from the write closure to commit, throw to roll back")
        }
        let changed = try run(SQLStatement(sql: sql, bindings: bindings))
        guard connection.isInTransaction else {
            throw FetchKitError.unsupported("the statement ended the write's transaction: \(sql)")
        }
        return changed
    }

    /// See `WriteTransaction`; runs on this transaction's connection.
    public func fetch(_ request: AnyFetchRequest) throws -> [Row] {
        _ = try entity(named: request.entityName)
        return try connection.fetchRows(compiler.fetch(request))
    }

    /// See `WriteTransaction`; runs on this transaction's connection.
    public func fetch<R: Record>(_ request: AnyFetchRequest, as type: R.Type) throws -> [R] {
        _ = try entity(named: request.entityName)
        return try connection.fetchRecords(compiler.compileFetch(request, as: R.self), as: R.self)
    }

    /// Runs one statement to completion; returns the rows it changed (0 for one that changes none).
    @discardableResult
    private func run(_ statement: SQLStatement) throws -> Int {
        try connection.changedRows(statement)
    }
}
