import FetchKitBackendKit

/// The rows of one entity's table, by primary key: a value, so a transaction's copy of the tables is
/// copy-on-write and a rollback is dropping the copy.
struct InMemoryTable: Sendable {
    /// The entity whose rows these are.
    let entity: Entity
    /// Every row holds every attribute of ``entity`` by name, in declaration order (this one layout).
    let layout: RowLayout
    /// The rows, by primary key.
    var rows: [Value: Row] = [:]
    /// The largest integer key given or assigned so far (every insert notes its key): the next key the store
    /// assigns is one more. Keys are not reused after a delete, as PostgreSQL's identity columns do not reuse
    /// them.
    var lastKey: Int64 = 0

    init(entity: Entity) {
        self.entity = entity
        self.layout = RowLayout(names: entity.attributes.map(\.name))
    }

    /// The key a row inserted without one gets.
    ///
    /// - Throws: ``FetchKitError/Code/invalidValue`` when the keys are exhausted.
    mutating func assignKey() throws -> Value {
        let next = lastKey.addingReportingOverflow(1)
        guard !next.overflow else {
            throw FetchKitError.invalidValue("\(entity.name) has no primary key left to assign")
        }
        lastKey = next.partialValue
        return .integer(next.partialValue)
    }

    /// Notes a key the writer chose, so that assigned keys stay above it.
    mutating func noteKey(_ key: Value) {
        if let integer = key.integerKey, integer > lastKey { lastKey = integer }
    }
}

extension Value {
    /// The integer of an integer key.
    fileprivate var integerKey: Int64? {
        if case .integer(let integer) = self { return integer }
        return nil
    }
}
