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

    /// Runs `plan`'s steps in one write transaction (PostgreSQL's DDL is transactional). Controllers stay live:
    /// the store keeps its schema, and its change capture follows a table's new columns as they are (the
    /// triggers report keys; the publication sends whole rows). A store opened with the new schema installs the
    /// capture of the tables the plan created.
    ///
    /// - Throws: ``FetchKitError/Code/schemaMismatch`` listing the refusals (nothing run) when `plan` has any;
    ///   database errors, after which nothing of the plan remains.
    public func apply(_ plan: SchemaPlan) async throws {
        if let refusal = plan.refusalError { throw refusal }
        guard !plan.steps.isEmpty else { return }
        try await write { tx in
            for step in plan.steps { try tx.execute(step.sql, []) }
        }
        logger.info("applied a schema plan", metadata: ["sql": "\(plan.sql)"])
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
