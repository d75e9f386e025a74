/// What a store does with the schema's tables when it opens.
public enum SchemaPolicy: Sendable, Hashable {
    /// Create the tables (and their indexes) that do not exist, in one transaction,
    /// and validate the ones that do.
    case createMissing
    /// Only validate: a missing table is a ``FetchKitError/Code/schemaMismatch``.
    case validateOnly
    /// For development: plan the changes that bring the database to the schema (``SchemaPlan``) and apply the
    /// additive ones — create tables, add columns, create indexes, and the change capture of what was created —
    /// in one transaction, then validate.
    ///
    /// A plan with a refusal (a column whose type changed, a column that became required, …) applies nothing:
    /// the store does not open, and the ``FetchKitError/Code/schemaMismatch`` lists the refusals.
    case evolve
}
