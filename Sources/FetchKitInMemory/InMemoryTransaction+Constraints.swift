import FetchKitBackendKit

/// The foreign keys every to-one relationship declares, as the backends' tables declare them:
/// `REFERENCES destination (key) ON DELETE SET NULL`.
extension InMemoryTransaction {
    /// Throws when a foreign key of `row` names no row of its relationship's destination (a row may name
    /// itself).
    ///
    /// - Throws: ``FetchKitError/Code/constraintViolation`` (`.foreignKey`), naming the constraint
    ///   `table_column_fkey`.
    func checkForeignKeys(of row: Row, in entity: Entity) throws {
        for relationship in entity.relationships {
            guard case .toOne(let foreignKey) = relationship.kind, let attribute = entity.attribute(named: foreignKey),
                let key = row[foreignKey], !key.isNull
            else { continue }
            let isItself = relationship.destination == entity.name && key == row[entity.primaryKey.name]
            guard !isItself, database.row(of: relationship.destination, key: key) == nil else { continue }
            throw FetchKitError.constraintViolation(
                .foreignKey, name: "\(entity.table)_\(attribute.column)_fkey",
                message: "\(entity.name).\(foreignKey) = \(key) names no \(relationship.destination)")
        }
    }

    /// Deletes the rows of `entity` with `keys` and sets the foreign keys naming them to `NULL`; returns how
    /// many rows existed.
    func delete(_ entity: Entity, keys: [Value]) throws -> Int {
        var deleted: Set<Value> = []
        for key in keys {
            guard let row = database.tables[entity.name]?.rows.removeValue(forKey: key) else { continue }
            deleted.insert(key)
            record(.delete, key: key, in: entity, rows: [row])
        }
        guard !deleted.isEmpty else { return 0 }
        for referencing in schema.entities {
            for relationship in referencing.relationships where relationship.destination == entity.name {
                guard case .toOne(let foreignKey) = relationship.kind else { continue }
                setNull(foreignKey, of: referencing, where: deleted)
            }
        }
        return deleted.count
    }

    /// `ON DELETE SET NULL`: clears `foreignKey` on the rows of `entity` that name one of `keys`.
    private func setNull(_ foreignKey: String, of entity: Entity, where keys: Set<Value>) {
        guard let rows = database.tables[entity.name]?.rows else { return }
        for (key, row) in rows {
            guard let value = row[foreignKey], keys.contains(value) else { continue }
            var cleared = row
            cleared.set(foreignKey, to: .null)
            database.tables[entity.name]?.rows[key] = cleared
            record(.update, key: key, in: entity, rows: [row, cleared])
        }
    }
}
