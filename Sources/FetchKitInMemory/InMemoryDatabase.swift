@_spi(Backend) import FetchKit
import FetchKitBackendKit

/// Every table of an ``InMemoryStore``: one value, so the committed state is swapped whole when a transaction
/// commits, and a reader keeps the state it started with while a write runs.
struct InMemoryDatabase: Sendable {
    /// The tables, by entity name.
    var tables: [String: InMemoryTable]

    /// Empty tables for every entity of `schema`.
    init(schema: Schema) {
        tables = Dictionary(uniqueKeysWithValues: schema.entities.map { ($0.name, InMemoryTable(entity: $0)) })
    }

    /// The row of `entity` whose primary key is `key`.
    func row(of entity: String, key: Value) -> Row? {
        tables[entity]?.rows[key]
    }

    /// Every row of `entity`, in no particular order.
    func rows(of entity: String) -> [Row] {
        tables[entity].map { Array($0.rows.values) } ?? []
    }

    /// The row the to-one `hops` lead to from `row`: `nil` when a foreign key on the way is `NULL` or names no
    /// row (the backends' `LEFT JOIN` then reads `NULL`).
    func follow(_ hops: some Collection<ResolvedKeyPath.Hop>, from row: Row) -> Row? {
        var current = row
        for hop in hops {
            guard let key = current[hop.foreignKey.name], !key.isNull,
                let next = self.row(of: hop.destination.name, key: key)
            else { return nil }
            current = next
        }
        return current
    }

    /// The value `path` (to-one hops, then an attribute) reads from `row`; `NULL` when a hop finds no row.
    func value(of path: ResolvedKeyPath, from row: Row) -> Value {
        follow(path.hops, from: row)?[path.attribute.name] ?? .null
    }
}
