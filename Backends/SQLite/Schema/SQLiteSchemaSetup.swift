import FetchKitBackendKit
import Logging

/// Brings a database in line with a schema when a store opens: validates the tables that exist and
/// creates the missing tables and indexes, in one transaction.
struct SQLiteSchemaSetup {
    let schema: Schema
    let compiler: SQLCompiler
    let policy: SQLiteStore.SchemaPolicy
    let logger: Logger

    /// Runs on the writer connection.
    ///
    /// - Throws: ``FetchKitError/Code/schemaMismatch`` for a table that does not match
    ///   (or is missing under ``SQLiteStore/SchemaPolicy/validateOnly``).
    func run(on connection: SQLiteConnection) throws {
        let validator = SQLiteSchemaValidator(dialect: compiler.dialect)
        guard policy == .createMissing else {
            for entity in schema.entities {
                let columns = try connection.tableColumns(entity.table)
                guard !columns.isEmpty else {
                    throw FetchKitError.schemaMismatch(
                        table: entity.table, detail: "the table does not exist (the schema policy is validateOnly)")
                }
                try validator.validate(entity, against: columns)
            }
            return
        }
        // The write lock first, so another process cannot create a table between the check and the CREATE.
        try connection.run("BEGIN IMMEDIATE")
        do {
            var created: [Entity] = []
            for entity in schema.entities {
                let columns = try connection.tableColumns(entity.table)
                if columns.isEmpty {
                    created.append(entity)
                } else {
                    try validator.validate(entity, against: columns)
                }
                // IF NOT EXISTS throughout: creates a missing table, and missing indexes of an existing one.
                for statement in compiler.createTable(entity) {
                    try connection.run(statement.sql, statement.bindings)
                }
            }
            // What was just created must pass the same check the next open runs.
            for entity in created {
                try validator.validate(entity, against: connection.tableColumns(entity.table))
            }
            try connection.run("COMMIT")
            if !created.isEmpty {
                logger.info("created tables", metadata: ["tables": "\(created.map(\.table).joined(separator: ", "))"])
            }
        } catch {
            if connection.isInTransaction { try? connection.run("ROLLBACK") }
            throw error
        }
    }
}
