/// A store that can plan and apply the additive changes that bring its database to a schema
/// (``SchemaPlan``). FetchKit's SQLite and PostgreSQL stores are.
public protocol SchemaPlanning: Sendable {
    /// The plan that brings this store's database to `schema`: read from the database now.
    ///
    /// - Throws: connection errors; ``FetchKitError/Code/closed`` after the store closed.
    func plan(for schema: Schema) async throws -> SchemaPlan

    /// Runs the plan's steps in one transaction, on this store's database.
    ///
    /// The store keeps serving the schema it was opened with: its controllers stay live, and a store opened
    /// with the new schema reads and writes the new attributes.
    ///
    /// - Throws: ``FetchKitError/Code/schemaMismatch`` listing the refusals, without running any step, when the
    ///   plan has any; database errors (the transaction is rolled back whole).
    func apply(_ plan: SchemaPlan) async throws
}

extension SchemaPlanning where Self: PersistentStore {
    /// Runs `plan`'s steps in one write transaction (``PersistentStore/write(_:)``), so a store's change feed
    /// sees the transaction as it sees any other, and a failed step rolls back every one.
    ///
    /// - Throws: ``FetchKitError/Code/schemaMismatch`` listing the refusals (nothing run) when `plan` has any;
    ///   the store's write errors.
    public func apply(_ plan: SchemaPlan) async throws {
        if let refusal = plan.refusalError { throw refusal }
        guard !plan.steps.isEmpty else { return }
        try await write { tx in
            for step in plan.steps { _ = try tx.execute(step.sql, []) }
        }
    }
}

extension Schema {
    /// The plan that brings `store`'s database to this schema.
    ///
    /// ```swift
    /// let plan = try await newSchema.plan(against: store)
    /// logger.info("schema changes:\n\(plan)")
    /// try await store.apply(plan)
    /// ```
    public func plan(against store: some SchemaPlanning) async throws -> SchemaPlan {
        try await store.plan(for: self)
    }
}

extension SchemaPlan {
    /// The error ``SchemaPlanning/apply(_:)`` throws for a plan with refusals: a
    /// ``FetchKitError/Code/schemaMismatch`` on the first refused table, listing every refusal, with the plan
    /// as ``FetchKitError/Context-swift.struct/suggestedSQL``.
    public var refusalError: FetchKitError? {
        guard let first = refusals.first else { return nil }
        let listed =
            refusals.count == 1
            ? first.description
            : refusals.enumerated().map { "(\($0.offset + 1)) \($0.element)" }.joined(separator: " ")
        return FetchKitError(
            .schemaMismatch,
            message: "\(refusals.count == 1 ? "a change is" : "\(refusals.count) changes are") not made "
                + "automatically: \(listed)",
            table: first.table, suggestedSQL: description)
    }
}
