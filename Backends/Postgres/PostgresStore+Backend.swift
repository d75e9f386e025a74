import FetchKit

extension PostgresStore: StoreBackend {
    /// `postgres://` and `postgresql://` (see ``PostgresURL``).
    public static var urlSchemes: [String] { ["postgres", "postgresql"] }

    /// Connects to the database `configuration.url` names, with the configuration's reader count, listener
    /// keepalives, reconnection backoff, ping and publish timeouts, notification row limit and logger.
    ///
    /// - Throws: ``FetchKitError/invalidURL(_:)`` for a malformed URL (its password redacted); connection
    ///   and schema errors as ``open(url:schema:options:)-(PostgresURL,_,_)`` throws them.
    public static func open(_ configuration: StoreConfiguration, schema: Schema) async throws -> any PersistentStore {
        var options = Options()
        options.logger = configuration.logger
        if let readers = configuration.readerCount { options.readerCount = readers }
        if let limit = configuration.notificationRowLimit { options.notificationRowLimit = limit }
        if let idle = configuration.keepaliveIdle { options.listener.keepaliveIdle = idle }
        if let interval = configuration.keepaliveInterval { options.listener.keepaliveInterval = interval }
        if let count = configuration.keepaliveCount { options.listener.keepaliveCount = count }
        if let backoff = configuration.reconnectBackoff { options.listener.reconnectBackoff = backoff }
        if let listenerURL = configuration.listenerURL {
            do {
                options.listener.url = try PostgresURL(listenerURL)
            } catch FetchKitError.invalidURL(let message) {
                throw FetchKitError.invalidURL("fetchkit.postgres.listenerURL: \(message)")
            }
        }
        if let timeout = configuration.pingTimeout { options.listener.pingTimeout = timeout }
        if let timeout = configuration.publishTimeout { options.listener.publishTimeout = timeout }
        return try await open(url: try PostgresURL(configuration.url), schema: schema, options: options)
    }

    /// The entity of the existing table `table` in the database `configuration.url` names (see
    /// ``describeTable(_:url:)``).
    public static func describeTable(_ table: String, configuration: StoreConfiguration) async throws -> Entity {
        try await describeTable(table, url: try PostgresURL(configuration.url))
    }
}
