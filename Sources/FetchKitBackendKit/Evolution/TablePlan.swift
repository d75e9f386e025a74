@_spi(Backend) import FetchKit

/// The plan for one entity whose table exists: its new columns and indexes, and what it refuses.
struct TablePlan {
    let entity: Entity
    let table: DatabaseDescription.Table
    let database: DatabaseDescription
    let compiler: SQLCompiler
    private(set) var steps: [SchemaPlan.Step] = []
    private(set) var refusals: [SchemaPlan.Refusal] = []
    private(set) var notes: [SchemaPlan.Note] = []

    init(entity: Entity, table: DatabaseDescription.Table, database: DatabaseDescription, compiler: SQLCompiler) {
        self.entity = entity
        self.table = table
        self.database = database
        self.compiler = compiler
    }

    private var dialect: SQLDialect { compiler.dialect }

    private func column(_ name: String) -> DatabaseDescription.Column? {
        table.columns.first { database.same($0.name, name) }
    }

    /// Compares the key, each attribute, the columns the entity does not declare, then the indexes.
    mutating func compare() {
        comparePrimaryKey()
        var added: Set<String> = []
        for attribute in entity.attributes.dropFirst() {
            if let column = column(attribute.column) {
                compare(attribute, with: column)
            } else if addColumn(attribute) {
                added.insert(attribute.column)
            }
        }
        compareUndeclaredColumns()
        for (column, name) in dialect.indexNames(of: entity) {
            let exists = table.indexes.contains { index in
                database.same(index.name, name) || index.columns.first.map { database.same($0, column) } == true
            }
            guard !exists, self.column(column) != nil || added.contains(column) else { continue }
            steps.append(
                SchemaPlan.Step(
                    .createIndex(column: column, name: name), table: entity.table,
                    sql: compiler.createIndex(name, table: entity.table, column: column)))
        }
    }

    private mutating func comparePrimaryKey() {
        let key = entity.primaryKeyAttribute
        let matches =
            table.primaryKey.count == 1 && database.same(table.primaryKey[0], key.column)
            && column(key.column)?.accepts.contains(key.type) == true
        guard !matches else { return }
        let found = table.primaryKey.isEmpty ? "none" : "(" + table.primaryKey.joined(separator: ", ") + ")"
        let declared = column(key.column).map { " declared \($0.declaredType)" } ?? ""
        refusals.append(
            SchemaPlan.Refusal(
                table: entity.table, column: key.column,
                problem: "the primary key is \(found)\(declared), but \(entity.name)'s is \(key.column), "
                    + "\(key.type)",
                remedy: "FetchKit does not change a primary key: migrate the table by hand (create the new table, "
                    + "copy the rows, swap the names), or declare the entity's primary key as the table has it"))
    }

    private mutating func compare(_ attribute: Attribute, with column: DatabaseDescription.Column) {
        let described = "\(entity.name).\(attribute.name)"
        guard column.accepts.contains(attribute.type) else {
            refusals.append(
                SchemaPlan.Refusal(
                    table: entity.table, column: column.name,
                    problem: "the column is \(column.declaredType), but \(described) is \(attribute.type) "
                        + "(\(dialect.columnType(for: attribute.type)))",
                    remedy: "FetchKit does not change a column's type: migrate it by hand (add a column of the new "
                        + "type, copy the values converted, drop the old one), or declare the attribute as the "
                        + "column has it"))
            return
        }
        if !attribute.isOptional && column.isNullable {
            refusals.append(
                SchemaPlan.Refusal(
                    table: entity.table, column: column.name,
                    problem: "the column allows NULL, but \(described) is required",
                    remedy: "set the rows holding NULL to a value and make the column NOT NULL by hand, or declare "
                        + "the attribute optional"))
        } else if attribute.isOptional && !column.isNullable {
            notes.append(
                SchemaPlan.Note(
                    table: entity.table, column: column.name,
                    text: "the column is NOT NULL but \(described) is optional: writing nil to it fails; "
                        + "left alone"))
        }
    }

    /// Adds `attribute`'s column, or refuses when existing rows could not get a value; whether it was added.
    private mutating func addColumn(_ attribute: Attribute) -> Bool {
        let described = "\(entity.name).\(attribute.name)"
        var definition = compiler.columnDefinition(attribute, isPrimaryKey: false)
        if let value = attribute.defaultValue, !value.isNull {
            guard let literal = dialect.literal(value, for: attribute.type) else {
                refusals.append(
                    SchemaPlan.Refusal(
                        table: entity.table, column: attribute.column,
                        problem: "the default of \(described) (\(value)) has no SQL literal",
                        remedy: "give the attribute another default, or add the column by hand"))
                return false
            }
            definition += " DEFAULT " + literal
        } else if !attribute.isOptional {
            refusals.append(
                SchemaPlan.Refusal(
                    table: entity.table, column: attribute.column,
                    problem: "the column is missing, and \(described) is required without a default, so the "
                        + "table's rows would have no value",
                    remedy: "give the attribute a default (default: …) or make it optional, or add the column and "
                        + "fill it by hand"))
            return false
        }
        steps.append(
            SchemaPlan.Step(
                .addColumn(column: attribute.column), table: entity.table,
                sql: "ALTER TABLE " + dialect.quote(entity.table) + " ADD COLUMN " + definition))
        if entity.relationships.contains(where: { $0.kind == .toOne(foreignKey: attribute.name) }) {
            notes.append(
                SchemaPlan.Note(
                    table: entity.table, column: attribute.column,
                    text: "the column is added without its foreign-key constraint (an existing table's "
                        + "constraints are changed by hand)"))
        }
        return true
    }

    /// Columns the entity does not declare: left alone, refused when inserts cannot leave them out.
    private mutating func compareUndeclaredColumns() {
        for column in table.columns {
            guard !entity.attributes.contains(where: { database.same($0.column, column.name) }),
                !table.primaryKey.contains(where: { database.same($0, column.name) })
            else { continue }
            if !column.isNullable && !column.hasDefault {
                refusals.append(
                    SchemaPlan.Refusal(
                        table: entity.table, column: column.name,
                        problem: "the column is NOT NULL without a default and \(entity.name) does not declare it, "
                            + "so inserts would fail",
                        remedy: "give the column a default, allow NULL in it, or drop it, by hand; or declare it "
                            + "in the entity"))
            } else {
                notes.append(
                    SchemaPlan.Note(
                        table: entity.table, column: column.name,
                        text: "\(entity.name) does not declare the column; left alone"))
            }
        }
    }
}
