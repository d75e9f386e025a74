import FetchKitBackendKit
import Logging

/// Brings a database in line with a schema when a store opens: validates the tables that exist and
/// creates the missing tables and indexes, in one transaction.
struct SQLiteSchemaSetup {
    let schema: Schema
    let compiler: SQLCompiler
    let policy: SQLiteStore.SchemaPolicy
    let logger: Logger
    /// Who hears of each step the evolve policy applies (the task's ``SchemaProgress`` when the store opened).
    var progress: SchemaProgress? = nil

    /// Runs on the writer connection.
    ///
    /// - Throws: ``FetchKitError/Code/schemaMismatch`` for a table that does not match
    ///   (or is missing under ``SQLiteStore/SchemaPolicy/validateOnly``).
    func run(on connection: SQLiteConnection) throws {
        do {
            switch policy {
            case .validateOnly, .createMissing: try setUp(on: connection)
            case .evolve: try evolve(on: connection)
            }
        } catch let error as FetchKitError where error.code == .schemaMismatch && error.suggestedSQL == nil {
            // The log says how to fix it: the plan that brings the database to the schema. Planning is advice:
            // when it fails too, the mismatch itself is the error to report.
            guard let plan = try? Self.plan(schema, on: connection) else { throw error }
            throw error.suggesting(plan.description)
        }
    }

    /// The plan that brings the database to `schema`.
    static func plan(_ schema: Schema, on connection: SQLiteConnection) throws -> SchemaPlan {
        SchemaPlanner(schema: schema, dialect: .sqlite).plan(against: try connection.databaseDescription(for: schema))
    }

    /// Plans and applies the additive steps under the write lock, then validates every table.
    private func evolve(on connection: SQLiteConnection) throws {
        try connection.run("BEGIN IMMEDIATE")
        do {
            let plan = try Self.plan(schema, on: connection)
            if let refusal = plan.refusalError { throw refusal }
            try progress.applying(plan) { step in try connection.run(step.sql) }
            let validator = SQLiteSchemaValidator(dialect: compiler.dialect)
            for entity in schema.entities {
                try validator.validate(entity, against: connection.tableColumns(entity.table))
            }
            try connection.run("COMMIT")
            if !plan.steps.isEmpty {
                logger.info("evolved the schema", metadata: ["sql": "\(plan.sql)"])
            }
        } catch {
            // The first error is the one to report; SQLite rolls back a transaction whose ROLLBACK failed when
            // the connection closes, so nothing of it is ever committed.
            if connection.isInTransaction { try? connection.run("ROLLBACK") }
            throw error
        }
    }

    private func setUp(on connection: SQLiteConnection) throws {
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
            // The first error is the one to report; SQLite rolls back a transaction whose ROLLBACK failed when
            // the connection closes, so nothing of it is ever committed.
            if connection.isInTransaction { try? connection.run("ROLLBACK") }
            throw error
        }
    }
}
