@_spi(Backend) import FetchKit

extension SQLCompiler {
    /// Compiles an `INSERT` of `row` into `entity`.
    ///
    /// Every attribute but the primary key is written: the row's value, else the attribute's default,
    /// else `NULL`. An integer primary key that is absent or `NULL` is left out, so the database assigns
    /// it. When the dialect supports `RETURNING`, the statement returns the primary key as one row.
    ///
    /// ```swift
    /// try compiler.insert(["title": "Ship it"], into: Fixtures.todo)
    /// // INSERT INTO "todo" ("title", "notes", "priority", …) VALUES (?, ?, ?, …) RETURNING "id"
    /// ```
    ///
    /// - Throws: ``FetchKitError/Code/unknownKey`` for a name that is not an attribute,
    ///   ``FetchKitError/Code/typeMismatch`` for a value of the wrong type,
    ///   ``FetchKitError/Code/invalidValue`` for NaN or text containing NUL, and
    ///   ``FetchKitError/Code/constraintViolation`` (`.notNull`) for a required attribute
    ///   without a value.
    public func insert(_ row: Row, into entity: Entity) throws -> SQLStatement {
        let entity = try schemaEntity(entity)
        var sql = try insertClause(row, into: entity)
        sql.append(returningKey(of: entity))
        return try sql.statement(in: dialect)
    }

    /// Compiles an upsert: insert `row`, or, when a row with its primary key exists, set the attributes
    /// `row` names on it (`ON CONFLICT ("id") DO UPDATE SET "title" = excluded."title"`).
    ///
    /// A row that names only the primary key becomes `ON CONFLICT ("id") DO NOTHING`.
    ///
    /// - Throws: the errors of ``insert(_:into:)``, and ``FetchKitError/Code/unsupported`` when the dialect
    ///   has no upsert syntax.
    public func upsert(_ row: Row, into entity: Entity) throws -> SQLStatement {
        guard dialect.upsertSyntax != nil else {
            throw FetchKitError.unsupported("upsert on \(dialect.name)")
        }
        let entity = try schemaEntity(entity)
        var sql = try insertClause(row, into: entity)
        let key = entity.primaryKeyAttribute
        let updated = entity.attributes.dropFirst().filter { row[$0.name] != nil }.map { quote($0.column) }
        sql.append(" ON CONFLICT (" + quote(key.column) + ") DO ")
        if updated.isEmpty {
            sql.append("NOTHING")
        } else {
            sql.append("UPDATE SET " + updated.map { "\($0) = excluded.\($0)" }.joined(separator: ", "))
        }
        return try sql.statement(in: dialect)
    }

    /// Compiles an `UPDATE` of the attributes named in `values` on the row whose primary key is `key`.
    ///
    /// ```swift
    /// try compiler.update(Fixtures.todo, key: 7, set: ["done": true])
    /// // UPDATE "todo" SET "done" = ? WHERE "id" = ?      bindings: [true, 7]
    /// ```
    ///
    /// - Throws: the value errors of ``insert(_:into:)``, and ``FetchKitError/Code/invalidValue`` when
    ///   `values` is empty, changes the primary key, or `key` is `NULL`.
    public func update(_ entity: Entity, key: Value, set values: Row) throws -> SQLStatement {
        let entity = try schemaEntity(entity)
        let key = try primaryKey(key, of: entity)
        var sql = try setClause(entity, values, keeping: key)
        sql.append(" WHERE " + keyCondition(key, of: entity))
        return try sql.statement(in: dialect)
    }

    /// Compiles an `UPDATE` of the attributes named in `values` on every row matching `predicate`.
    ///
    /// A predicate that needs no join is written against the table itself
    /// (`UPDATE "todo" SET "done" = ? WHERE "todo"."priority" > ?`); one that crosses a to-one
    /// relationship selects the keys to update in a subquery. Correlated subqueries (`ANY`, `@count`)
    /// work in both forms.
    ///
    /// - Throws: the errors of ``FetchPredicate/validated(for:in:)`` and the value errors of
    ///   ``update(_:key:set:)`` (the primary key cannot be set).
    public func update(_ entity: Entity, where predicate: FetchPredicate, set values: Row) throws -> SQLStatement {
        let entity = try schemaEntity(entity)
        var sql = try setClause(entity, values, keeping: nil)
        sql.append(try filter(entity, predicate))
        return try sql.statement(in: dialect)
    }

    /// Compiles a `DELETE` of the row whose primary key is `key`.
    ///
    /// - Throws: ``FetchKitError/Code/typeMismatch`` when `key` is not of the
    ///   primary key's type, ``FetchKitError/Code/invalidValue`` when it is `NULL`.
    public func delete(_ entity: Entity, key: Value) throws -> SQLStatement {
        let entity = try schemaEntity(entity)
        let key = try primaryKey(key, of: entity)
        let sql = "DELETE FROM " + quote(entity.table) + " WHERE " + keyCondition(key, of: entity)
        return try sql.statement(in: dialect)
    }

    /// Compiles a `DELETE` of every row matching `predicate` (written like ``update(_:where:set:)``).
    ///
    /// - Throws: the errors of ``FetchPredicate/validated(for:in:)``.
    public func delete(_ entity: Entity, where predicate: FetchPredicate) throws -> SQLStatement {
        let entity = try schemaEntity(entity)
        let sql = "DELETE FROM " + quote(entity.table) + (try filter(entity, predicate))
        return try sql.statement(in: dialect)
    }

    // MARK: - Clauses

    /// `INSERT INTO "t" ("a", …) VALUES (?, …)` with every value checked and defaults filled in.
    private func insertClause(_ row: Row, into entity: Entity) throws -> SQLFragment {
        var values: [Value] = []
        try appendInsertValues(of: row, into: entity, to: &values)
        return try insertClause(values, into: entity)
    }

    /// `INSERT INTO "t" ("a", …) VALUES (?, …)` binding `values`, one per attribute of `entity` in
    /// declaration order; an integer primary key that is `NULL` is left out, so the database assigns it.
    ///
    /// - Throws: ``FetchKitError/Code/invalidValue`` for a value its column's native type cannot hold.
    func insertClause(_ values: some Collection<Value>, into entity: Entity) throws -> SQLFragment {
        var columns: [String] = []
        var bindings: [SQLFragment] = []
        for (index, (attribute, value)) in zip(entity.attributes, values).enumerated() {
            if index == 0 && attribute.type == .integer && value.isNull { continue }
            columns.append(quote(attribute.column))
            bindings.append(try written(value, for: attribute, of: entity))
        }
        let table = "INSERT INTO " + quote(entity.table)
        guard !columns.isEmpty else { return SQLFragment(table + " DEFAULT VALUES") }
        return table + " (" + columns.joined(separator: ", ") + ") VALUES (" + bindings.joined(separator: ", ") + ")"
    }

    /// Appends the value `row` gives each attribute of `entity` to `values`, in declaration order: the
    /// row's value, else the attribute's default, else `NULL`, each checked to be storable. An integer
    /// primary key that is absent or `NULL` is appended as `NULL` (the database assigns it).
    public func appendInsertValues(of row: Row, into entity: Entity, to values: inout [Value]) throws {
        try rejectUnknownNames(row, of: entity)
        for (index, attribute) in entity.attributes.enumerated() {
            try appendInsertValue(row[attribute.name], of: attribute, at: index, into: entity, to: &values)
        }
    }

    /// Appends the value `given` (`nil`: not given) makes of attribute `index` of `entity` in an insert.
    func appendInsertValue(
        _ given: Value?, of attribute: Attribute, at index: Int, into entity: Entity, to values: inout [Value]
    ) throws {
        if index == 0 && attribute.type == .integer && (given ?? .null).isNull {
            values.append(.null)
            return
        }
        values.append(try storable(given ?? attribute.defaultValue ?? .null, for: attribute, of: entity))
    }

    /// ` RETURNING "id"`, the primary key, where the dialect supports it (else nothing).
    func returningKey(of entity: Entity) -> String {
        dialect.supportsReturning ? " RETURNING " + quote(entity.primaryKeyAttribute.column) : ""
    }

    /// `UPDATE "t" SET "a" = ?, …` for the attributes `values` names, in declaration order.
    private func setClause(_ entity: Entity, _ values: Row, keeping key: Value?) throws -> SQLFragment {
        let assignments = try assignments(of: values, to: entity, keeping: key).map { attribute, value in
            quote(attribute.column) + " = " + (try written(value, for: attribute, of: entity))
        }
        return "UPDATE " + quote(entity.table) + " SET " + assignments.joined(separator: ", ")
    }

    /// The attributes `values` sets on a row of `entity` and their storable values, in declaration order, the
    /// primary key left out (it may only be set to `key`, its current value).
    ///
    /// - Throws: the value errors of ``insert(_:into:)``, and ``FetchKitError/Code/invalidValue`` when `values`
    ///   sets nothing or changes the primary key.
    public func assignments(
        of values: Row, to entity: Entity, keeping key: Value?
    ) throws -> [(attribute: Attribute, value: Value)] {
        try rejectUnknownNames(values, of: entity)
        let keyAttribute = entity.primaryKeyAttribute
        var assignments: [(attribute: Attribute, value: Value)] = []
        for attribute in entity.attributes {
            guard let given = values[attribute.name] else { continue }
            let value = try storable(given, for: attribute, of: entity)
            if attribute.name == keyAttribute.name {
                guard let key, value == key else {
                    throw FetchKitError.invalidValue(
                        "an update cannot change the primary key \(SafeText.quoted(attribute.name)) of \(entity.name)")
                }
                continue
            }
            assignments.append((attribute, value))
        }
        guard !assignments.isEmpty else {
            throw FetchKitError.invalidValue("an update of \(entity.name) must set at least one attribute")
        }
        return assignments
    }

    /// ` WHERE …` for an `UPDATE` or `DELETE` of `entity`: against the table itself when the predicate
    /// needs no join, otherwise `"id" IN (SELECT t0."id" FROM "t" AS t0 LEFT JOIN … WHERE …)`.
    private func filter(_ entity: Entity, _ predicate: FetchPredicate) throws -> SQLFragment {
        let predicate = try predicate.validated(for: entity, in: schema)
        if predicate.isTriviallyTrue { return SQLFragment() }
        let direct = QueryScope(
            entity: entity, alias: quote(entity.table), aliases: AliasAllocator(), isSubquery: false)
        let condition = try condition(predicate, in: direct)
        if direct.joins.isEmpty { return " WHERE " + condition.sql }
        let scope = QueryScope(entity: entity, alias: "t0", aliases: AliasAllocator(), isSubquery: false)
        let aliased = try self.condition(predicate, in: scope)
        let key = quote(entity.primaryKeyAttribute.column)
        return " WHERE " + key + " IN (SELECT t0." + key + " FROM " + scope.fromClause(dialect: dialect)
            + " WHERE " + aliased.sql + ")"
    }

    // MARK: - Values

    private func rejectUnknownNames(_ row: Row, of entity: Entity) throws {
        for name in row.names where entity.attribute(named: name) == nil {
            throw FetchKitError.unknownKey(name, entity: entity.name, offset: nil)
        }
    }

    /// `key` as a value of `entity`'s primary key type.
    public func primaryKey(_ key: Value, of entity: Entity) throws -> Value {
        let attribute = entity.primaryKeyAttribute
        guard !key.isNull else {
            throw FetchKitError.invalidValue(
                "the primary key \(SafeText.quoted(attribute.name)) of \(entity.name) cannot be NULL")
        }
        return try storable(key, for: attribute, of: entity)
    }

    /// `value` converted to `attribute`'s type and checked to be storable.
    func storable(_ value: Value, for attribute: Attribute, of entity: Entity) throws -> Value {
        guard let coerced = attribute.type.coerce(value) else {
            throw FetchKitError.typeMismatch(
                key: attribute.name, expected: attribute.type, got: value.description, offset: nil)
        }
        switch coerced {
        case .null where !attribute.isOptional:
            throw FetchKitError.constraintViolation(
                .notNull, name: "\(entity.table).\(attribute.column)",
                message: "\(entity.name).\(attribute.name) is required and has no value")
        case .double(let number) where number.isNaN:
            throw FetchKitError.invalidValue("\(entity.name).\(attribute.name) cannot store NaN")
        case .date(let date) where !date.isStorable:
            throw FetchKitError.invalidValue(
                "\(entity.name).\(attribute.name) cannot store a date \(date.timeIntervalSince1970) seconds from 1970 "
                    + "(dates are stored within about 292,000 years of 1970)")
        case .text(let text) where text.unicodeScalars.contains("\0"):
            throw FetchKitError.invalidValue("\(entity.name).\(attribute.name) cannot store text containing NUL")
        default:
            return coerced
        }
    }
}
