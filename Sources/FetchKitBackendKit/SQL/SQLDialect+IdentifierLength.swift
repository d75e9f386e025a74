@_spi(Backend) import FetchKit

extension SQLDialect {
    /// Refuses a schema that names a table or column longer than ``maxIdentifierBytes`` (nothing to check when
    /// the dialect has no limit).
    ///
    /// PostgreSQL cuts a longer identifier to 63 bytes without an error, so the table it creates is not the one
    /// FetchKit asks for next and a lookup fails far from the cause ("no column 'id'"). A store calls this when it
    /// opens, before it touches the database. The index names FetchKit makes up (`table_column_idx`) are cut
    /// instead, as the database would cut them (``indexNames(of:)``); two indexes of different tables whose names
    /// come out equal are refused.
    ///
    /// ```swift
    /// try SQLDialect.postgres.checkIdentifierLengths(of: schema)
    /// // throws: invalid schema: the column 'a_very_long_…' of Todo.note is 70 bytes long; PostgreSQL keeps at
    /// //         most 63 bytes of an identifier: give the attribute a shorter column (column: "…")
    /// ```
    ///
    /// - Throws: ``FetchKitError/Code/invalidSchema`` naming the identifier, its entity, its length in bytes and
    ///   the limit.
    public func checkIdentifierLengths(of schema: Schema) throws {
        guard let limit = maxIdentifierBytes else { return }
        var indexes: [String: (entity: Entity, column: String)] = [:]
        for entity in schema.entities {
            if entity.table.utf8.count > limit {
                throw identifierTooLong(
                    "the table '\(entity.table)' of entity \(entity.name)", entity.table, limit: limit, entity: entity,
                    remedy: "give the entity a shorter table (table: \"…\")")
            }
            for attribute in entity.attributes where attribute.column.utf8.count > limit {
                let foreignKeyOf = entity.relationships.first { $0.kind == .toOne(foreignKey: attribute.name) }
                let role = foreignKeyOf.map { " (the foreign key of relationship '\($0.name)')" } ?? ""
                throw identifierTooLong(
                    "the column '\(attribute.column)' of \(entity.name).\(attribute.name)\(role)", attribute.column,
                    limit: limit, entity: entity, remedy: "give the attribute a shorter column (column: \"…\")")
            }
            for (column, name) in indexNames(of: entity) {
                if let other = indexes[name] {
                    throw FetchKitError(
                        .invalidSchema,
                        message: "the index on '\(other.entity.table)'.'\(other.column)' and the index on "
                            + "'\(entity.table)'.'\(column)' would both be named '\(name)' once cut to \(limit) "
                            + "bytes, the most \(self.name) keeps of an identifier: shorten a table or column name",
                        entity: entity.name, table: entity.table)
                }
                indexes[name] = (entity, column)
            }
        }
    }

    /// The indexes FetchKit creates on `entity` (see ``SQLCompiler/createTable(_:)``): every foreign key of a
    /// to-one relationship and every indexed attribute but the primary key, in declaration order, each column
    /// once, with its index's name.
    ///
    /// An index is named `table_column_idx`, cut to ``maxIdentifierBytes`` at a character boundary as PostgreSQL
    /// itself cuts a longer name (so a database created before FetchKit cut it keeps its index). When a cut name
    /// is already taken by an earlier index of the entity, the later one ends in a hash of its table and column
    /// instead (`table_col_1a2b3c4d`): PostgreSQL would have skipped it (`CREATE INDEX IF NOT EXISTS`).
    public func indexNames(of entity: Entity) -> [(column: String, name: String)] {
        var taken: Set<String> = []
        return Self.indexedColumns(of: entity).map { column in
            var name = indexName(table: entity.table, column: column)
            if !taken.insert(name).inserted, let limit = maxIdentifierBytes {
                let hash = Self.fnv1a("\(entity.table)\u{0}\(column)")
                let suffix =
                    "_" + String(repeating: "0", count: 8 - String(hash, radix: 16).count)
                    + String(hash, radix: 16)
                name = Self.cut("\(entity.table)_\(column)", toBytes: limit - suffix.utf8.count) + suffix
                taken.insert(name)
            }
            return (column, name)
        }
    }

    /// `table_column_idx`, cut to ``maxIdentifierBytes`` at a character boundary, as PostgreSQL cuts a longer
    /// name.
    public func indexName(table: String, column: String) -> String {
        let name = "\(table)_\(column)_idx"
        guard let limit = maxIdentifierBytes else { return name }
        return Self.cut(name, toBytes: limit)
    }

    /// `text`'s first `limit` UTF-8 bytes at most, ending at a character boundary.
    private static func cut(_ text: String, toBytes limit: Int) -> String {
        guard text.utf8.count > limit else { return text }
        let utf8 = text.utf8
        var end = utf8.index(utf8.startIndex, offsetBy: limit)
        // Back off to the first byte of a scalar (continuation bytes are 0b10xxxxxx).
        while end > utf8.startIndex, utf8[end] & 0xC0 == 0x80 { utf8.formIndex(before: &end) }
        return String(decoding: utf8[..<end], as: UTF8.self)
    }

    /// The 32-bit FNV-1a hash of `text`'s UTF-8 bytes: the same in every process and release.
    private static func fnv1a(_ text: String) -> UInt32 {
        text.utf8.reduce(2_166_136_261 as UInt32) { ($0 ^ UInt32($1)) &* 16_777_619 }
    }

    /// The columns of `entity` that get an index: every foreign key of a to-one relationship and every indexed
    /// attribute but the primary key, in declaration order, each once.
    private static func indexedColumns(of entity: Entity) -> [String] {
        let foreignKeys = Set(
            entity.relationships.compactMap { relationship -> String? in
                guard case .toOne(let foreignKey) = relationship.kind else { return nil }
                return foreignKey
            })
        let key = entity.primaryKeyAttribute.name
        var seen: Set<String> = []
        return entity.attributes.filter { attribute in
            (foreignKeys.contains(attribute.name) || (attribute.isIndexed && attribute.name != key))
                && seen.insert(attribute.column).inserted
        }.map(\.column)
    }

    private func identifierTooLong(
        _ what: String, _ identifier: String, limit: Int, entity: Entity, remedy: String
    ) -> FetchKitError {
        FetchKitError(
            .invalidSchema,
            message: "\(what) is \(identifier.utf8.count) bytes long; \(name) keeps at most \(limit) bytes of an "
                + "identifier and would cut the rest silently: \(remedy)",
            entity: entity.name, table: entity.table)
    }
}
