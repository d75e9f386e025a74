import FetchKit
import Logging

/// Brings a database in line with a schema when a store opens: validates the tables that exist and creates
/// the missing tables and indexes, in one transaction that holds an advisory lock, so two processes opening
/// at once do not race.
struct PostgresSchemaSetup {
    let schema: Schema
    let compiler: SQLCompiler
    let policy: SchemaPolicy
    let logger: Logger

    /// Runs on the writer connection.
    ///
    /// - Throws: ``FetchKitError/schemaMismatch(table:detail:)`` for a table that does not match (or is
    ///   missing under ``SchemaPolicy/validateOnly``).
    func run(on connection: PostgresConnection) throws {
        try connection.run("BEGIN")
        do {
            try connection.execute("SELECT pg_advisory_xact_lock(hashtext('fetchkit.schema'))")
            var missing: [Entity] = []
            for entity in schema.entities {
                if try Self.isView(entity.table, on: connection) {
                    throw FetchKitError.unsupported(
                        "entity \(entity.name): '\(entity.table)' is a view, and FetchKit follows tables (their triggers "
                            + "tell it what changed); give the entity the table the view reads, with the view's "
                            + "predicate as the request's")
                }
                let columns = try PostgresTableColumn.columns(of: entity.table, on: connection)
                if columns.isEmpty {
                    missing.append(entity)
                } else {
                    try PostgresTableColumn.validate(entity, against: columns, dialect: compiler.dialect)
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
                    try PostgresTableColumn.validate(
                        entity, against: PostgresTableColumn.columns(of: entity.table, on: connection),
                        dialect: compiler.dialect)
                }
            }
            try connection.run("COMMIT")
            if !missing.isEmpty {
                logger.info("created tables", metadata: ["tables": "\(missing.map(\.table).joined(separator: ", "))"])
            }
        } catch {
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
                + "WHERE n.nspname = current_schema() AND c.relname = $1", [.text(table)]).rows()
        return rows.contains { $0["kind"] == .text("v") || $0["kind"] == .text("m") }
    }
}

/// One column of an existing table, as `information_schema` describes it.
struct PostgresTableColumn {
    let name: String
    /// `information_schema.columns.data_type`: `bigint`, `text`, `timestamp with time zone`, …
    let dataType: String
    let isNullable: Bool

    /// The columns of `table` in the connection's current schema (none when it does not exist).
    static func columns(of table: String, on connection: PostgresConnection) throws -> [PostgresTableColumn] {
        let rows = try connection.execute("""
            SELECT column_name::text AS name, data_type::text AS type, is_nullable::text AS nullable
            FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1
            ORDER BY ordinal_position
            """, [.text(table)]).rows()
        func text(_ row: Row, _ name: String) -> String {
            if case .text(let text)? = row[name] { return text }
            return ""
        }
        return rows.map {
            PostgresTableColumn(name: text($0, "name"), dataType: text($0, "type"), isNullable: text($0, "nullable") == "YES")
        }
    }

    /// Checks that every attribute of `entity` has a column of the right type (extra columns are allowed).
    static func validate(_ entity: Entity, against columns: [PostgresTableColumn], dialect: SQLDialect) throws {
        let byName = Dictionary(columns.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for attribute in entity.attributes {
            guard let column = byName[attribute.column] else {
                throw FetchKitError.schemaMismatch(table: entity.table, detail: "no column '\(attribute.column)'")
            }
            let expected = informationSchemaType(dialect.columnType(for: attribute.type))
            guard column.dataType == expected else {
                throw FetchKitError.schemaMismatch(
                    table: entity.table,
                    detail: "column '\(attribute.column)' is \(column.dataType), expected \(expected) for a \(attribute.type) attribute")
            }
            if !attribute.isOptional && column.isNullable && attribute.name != entity.primaryKeyAttribute.name {
                throw FetchKitError.schemaMismatch(
                    table: entity.table, detail: "column '\(attribute.column)' allows NULL but '\(attribute.name)' is not optional")
            }
        }
    }

    /// How `information_schema` spells a declared type.
    private static func informationSchemaType(_ declared: String) -> String {
        switch declared.uppercased() {
        case "BIGINT": return "bigint"
        case "DOUBLE PRECISION": return "double precision"
        case "TEXT": return "text"
        case "BOOLEAN": return "boolean"
        case "TIMESTAMPTZ": return "timestamp with time zone"
        case "BYTEA": return "bytea"
        default: return declared.lowercased()
        }
    }
}
