import FetchKit

extension PostgresStore: StoreBackend {
    /// `postgres://` and `postgresql://` (see ``PostgresURL``).
    public static var urlSchemes: [String] { ["postgres", "postgresql"] }

    /// Connects to the database `configuration.url` names, with the configuration's reader count and logger
    /// and the PostgreSQL keys of its reader (see ``Options/init(configuration:)``).
    ///
    /// - Throws: ``FetchKitError/Code/invalidURL`` for a malformed URL (its password redacted);
    ///   ``FetchKitError/Code/invalidValue`` naming a key whose value is out of range; connection and schema
    ///   errors as ``open(url:schema:options:)-(PostgresURL,_,_)`` throws them.
    public static func open(_ configuration: StoreConfiguration, schema: Schema) async throws -> any PersistentStore {
        try await open(
            url: try PostgresURL(configuration.url), schema: schema, options: try Options(configuration: configuration))
    }

    /// The entity of the existing table `table` in the database `configuration.url` names (see
    /// ``describeTable(_:url:)``).
    public static func describeTable(_ table: String, configuration: StoreConfiguration) async throws -> Entity {
        try await describeTable(table, url: try PostgresURL(configuration.url))
    }
}
