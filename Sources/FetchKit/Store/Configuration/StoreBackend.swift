/// A storage backend a ``StoreRegistry`` can open by URL scheme. FetchKitSQLite's `SQLiteStore` and
/// FetchKitPostgres's `PostgresStore` conform; a third-party backend joins the same way.
///
/// ```swift
/// extension MyStore: StoreBackend {
///     static var urlSchemes: [String] { ["mystore"] }
///     static func open(_ configuration: StoreConfiguration, schema: Schema) async throws -> any PersistentStore { … }
///     // Optional: lets tools such as `fetchkit watch` attach to existing tables.
///     static func describeTable(_ table: String, configuration: StoreConfiguration) async throws -> Entity { … }
/// }
/// ```
public protocol StoreBackend: SendableMetatype {
    /// The URL schemes it opens, lowercase (`["postgres", "postgresql"]`).
    static var urlSchemes: [String] { get }
    /// Opens the store `configuration.url` names, with `schema`.
    static func open(_ configuration: StoreConfiguration, schema: Schema) async throws -> any PersistentStore
    /// The entity of the existing table `table` in the database `configuration.url` names (its columns and
    /// primary key), for tools that attach to a database (`fetchkit watch`). By default: unsupported.
    static func describeTable(_ table: String, configuration: StoreConfiguration) async throws -> Entity
    /// The plan that brings the database `configuration.url` names to `schema` (``SchemaPlan``), read without
    /// opening a store, for tools (`fetchkit schema plan`). By default: unsupported.
    static func plan(_ schema: Schema, configuration: StoreConfiguration) async throws -> SchemaPlan
    /// Whether the database `configuration.url` names is ready for a store, one check at a time with what to do
    /// (``DiagnosticCheck``), read without changing anything, for `fetchkit doctor`. By default: one warning
    /// that the backend has no checks.
    static func diagnose(_ configuration: StoreConfiguration) async -> [DiagnosticCheck]
}

extension StoreBackend {
    public static func describeTable(_ table: String, configuration: StoreConfiguration) async throws -> Entity {
        throw FetchKitError.unsupported("\(Self.self) cannot describe existing tables")
    }

    public static func plan(_ schema: Schema, configuration: StoreConfiguration) async throws -> SchemaPlan {
        throw FetchKitError.unsupported("\(Self.self) cannot plan schema changes")
    }

    public static func diagnose(_ configuration: StoreConfiguration) async -> [DiagnosticCheck] {
        [DiagnosticCheck("backend", .warning, "\(Self.self) has no checks")]
    }
}
