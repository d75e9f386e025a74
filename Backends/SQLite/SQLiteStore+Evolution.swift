import FetchKitBackendKit
import Foundation

extension SQLiteStore: SchemaPlanning {
    /// The plan that brings this store's database to `schema` (see ``SchemaPlan``), read on the writer.
    ///
    /// ```swift
    /// let plan = try await newSchema.plan(against: store)
    /// ```
    public func plan(for schema: Schema) async throws -> SchemaPlan {
        try await writer.run { connection in try SQLiteSchemaSetup.plan(schema, on: connection) }
    }

    /// The plan that brings the database file at `path` to `schema`, read without opening a store (nothing is
    /// created or changed); a file that does not exist yet gets the plan that creates every table.
    ///
    /// ```swift
    /// print(try await SQLiteStore.plan(path: "app.sqlite", schema: schema).sql)
    /// ```
    public static func plan(path: String, schema: Schema) async throws -> SchemaPlan {
        guard FileManager.default.fileExists(atPath: path) else {
            return SchemaPlanner(schema: schema, dialect: .sqlite).plan(against: DatabaseDescription(tables: []))
        }
        let pool = try await ConnectionPool<SQLiteConnection>.start(name: "fk.sqlite.plan", size: 1) { _ in
            try SQLiteConnection.open(
                .init(path: path, readOnly: true, busyTimeoutMilliseconds: 5_000, statementCacheCapacity: 0))
        }
        do {
            let plan = try await pool.run { connection in try SQLiteSchemaSetup.plan(schema, on: connection) }
            await pool.shutDown()
            return plan
        } catch {
            await pool.shutDown()
            throw error
        }
    }
}
