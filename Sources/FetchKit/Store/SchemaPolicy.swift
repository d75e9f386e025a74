/// What a store does with the schema's tables when it opens.
public enum SchemaPolicy: Sendable, Hashable {
    /// Create the tables (and their indexes) that do not exist, in one transaction,
    /// and validate the ones that do.
    case createMissing
    /// Only validate: a missing table is a ``FetchKitError/Code/schemaMismatch``.
    case validateOnly
}
