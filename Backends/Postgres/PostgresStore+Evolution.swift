import FetchKitBackendKit

extension PostgresStore: SchemaPlanning {
    /// The plan that brings this store's database (the URL's current schema) to `schema` (see ``SchemaPlan``).
    ///
    /// ```swift
    /// let plan = try await newSchema.plan(against: store)
    /// ```
    public func plan(for schema: Schema) async throws -> SchemaPlan {
        try await writer.run { connection in try PostgresSchemaSetup.plan(schema, on: connection) }
    }

    /// The plan that brings the database at `url` (its current schema) to `schema`, read without opening a
    /// store: nothing is created or changed.
    ///
    /// ```swift
    /// print(try await PostgresStore.plan(url: PostgresURL("postgres://app@db/app"), schema: schema).sql)
    /// ```
    public static func plan(url: PostgresURL, schema: Schema) async throws -> SchemaPlan {
        try SQLDialect.postgres.checkIdentifierLengths(of: schema)
        let pool = try await ConnectionPool<PostgresConnection>.start(name: "fk.pg.plan", size: 1) { _ in
            try PostgresConnection.open(url)
        }
        do {
            let plan = try await pool.run { connection in try PostgresSchemaSetup.plan(schema, on: connection) }
            await pool.shutDown()
            return plan
        } catch {
            await pool.shutDown()
            throw error
        }
    }

    /// The plan that brings the database `configuration.url` names to `schema` (see ``plan(url:schema:)``).
    public static func plan(_ schema: Schema, configuration: StoreConfiguration) async throws -> SchemaPlan {
        try await plan(url: try PostgresURL(configuration.url), schema: schema)
    }
}
