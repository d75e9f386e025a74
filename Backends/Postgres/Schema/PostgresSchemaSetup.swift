import FetchKitBackendKit
import Logging

/// Brings a database in line with a schema when a store opens: validates the tables that exist and creates
/// the missing tables and indexes, in one transaction that holds an advisory lock, so two processes opening
/// at once do not race.
struct PostgresSchemaSetup {
    let schema: Schema
    let compiler: SQLCompiler
    let policy: SchemaPolicy
    let logger: Logger
    /// Who hears of each step the evolve policy applies (the task's ``SchemaProgress`` when the store opened).
    var progress: SchemaProgress? = nil

    /// Runs on the writer connection; returns the native types of the entities' columns (those that are not
    /// the dialect's standard types), for the store's compiler.
    ///
    /// - Throws: ``FetchKitError/Code/schemaMismatch`` for a table that does not match (or is
    ///   missing under ``SchemaPolicy/validateOnly``), or a column of a type FetchKit does not support.
    func run(on connection: PostgresConnection) throws -> NativeColumns {
        do {
            return try setUp(on: connection)
        } catch let error as FetchKitError where error.code == .schemaMismatch && error.suggestedSQL == nil {
            // The log says how to fix it: the plan that brings the database to the schema. Planning is advice:
            // when it fails too (the connection broke), the mismatch itself is the error to report.
            guard connection.isConnected, let plan = try? Self.plan(schema, on: connection) else { throw error }
            throw error.suggesting(plan.description)
        }
    }

    /// The plan that brings the connection's current schema to `schema`.
    static func plan(_ schema: Schema, on connection: PostgresConnection) throws -> SchemaPlan {
        SchemaPlanner(schema: schema, dialect: .postgres).plan(against: try connection.databaseDescription(for: schema))
    }

    private func setUp(on connection: PostgresConnection) throws -> NativeColumns {
        try connection.run("BEGIN")
        do {
            try connection.execute("SELECT pg_advisory_xact_lock(hashtext('fetchkit.schema'))")
            var applied = ""
            if policy == .evolve {
                // DDL is transactional: the steps and the checks below commit together, or not at all.
                let plan = try Self.plan(schema, on: connection)
                if let refusal = plan.refusalError { throw refusal }
                try progress.applying(plan) { step in _ = try connection.execute(step.sql) }
                applied = plan.sql
            }
            var missing: [Entity] = []
            var natives: NativeColumns = [:]
            for entity in schema.entities {
                if try Self.isView(entity.table, on: connection) {
                    throw FetchKitError.unsupported(
                        "entity \(entity.name): \(SafeText.quoted(entity.table)) is a view, and FetchKit "
                            + "follows tables (their "
                            + "triggers "
                            + "tell it what changed); give the entity the table the view reads, with the view's "
                            + "predicate as the request's")
                }
                let columns = try PostgresTableColumn.columns(of: entity.table, on: connection)
                if columns.isEmpty {
                    missing.append(entity)
                } else {
                    natives[entity.table] = try PostgresTableColumn.validate(entity, against: columns)
                }
            }
            if !missing.isEmpty {
                guard policy == .createMissing else {
                    throw FetchKitError.schemaMismatch(
                        table: missing[0].table, detail: "the table does not exist (the schema policy is validateOnly)")
                }
                // IF NOT EXISTS throughout, tables before the tables that reference them.
                for statement in compiler.createSchema() { try connection.execute(statement.sql, statement.bindings) }
                for entity in missing {
                    natives[entity.table] = try PostgresTableColumn.validate(
                        entity, against: PostgresTableColumn.columns(of: entity.table, on: connection))
                }
            }
            try connection.run("COMMIT")
            if !applied.isEmpty { logger.info("evolved the schema", metadata: ["sql": "\(applied)"]) }
            if !missing.isEmpty {
                logger.info("created tables", metadata: ["tables": "\(missing.map(\.table).joined(separator: ", "))"])
            }
            return natives.filter { !$0.value.isEmpty }
        } catch {
            // The first error is the one to report; a ROLLBACK that fails too leaves nothing committed either
            // (the server ends the transaction with the connection).
            if connection.isConnected && connection.isInTransaction { _ = try? connection.run("ROLLBACK") }
            throw error
        }
    }
}

extension PostgresSchemaSetup {
    /// Whether `table` in the current schema is a view (plain or materialized).
    static func isView(_ table: String, on connection: PostgresConnection) throws -> Bool {
        let rows = try connection.execute(
            "SELECT c.relkind::text AS kind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                + "WHERE n.nspname = current_schema() AND c.relname = $1", [.text(table)]
        ).rows()
        return rows.contains { $0["kind"] == .text("v") || $0["kind"] == .text("m") }
    }
}
