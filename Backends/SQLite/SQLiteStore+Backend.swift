import FetchKit

extension SQLiteStore: StoreBackend {
    /// `sqlite:`: `sqlite:///absolute/path.sqlite`, `sqlite:relative/path.sqlite`, or `sqlite::memory:`.
    public static var urlSchemes: [String] { ["sqlite"] }

    /// Opens the SQLite database `configuration.url` names (see ``urlSchemes``), with the configuration's
    /// reader count, `data_version` poll interval and logger.
    ///
    /// - Throws: ``FetchKitError/invalidURL(_:)`` for a URL without a path.
    public static func open(_ configuration: StoreConfiguration, schema: Schema) async throws -> any PersistentStore {
        var options = Options()
        options.logger = configuration.logger
        if let readers = configuration.readerCount { options.readerCount = readers }
        if let interval = configuration.dataVersionPollInterval { options.dataVersionPollInterval = interval }
        var path = String(configuration.url.drop { $0 != ":" }.dropFirst())
        if path == ":memory:" { return try await inMemory(schema: schema, options: options) }
        if path.hasPrefix("//") { path.removeFirst(2) }
        guard !path.isEmpty else {
            throw FetchKitError.invalidURL("'\(configuration.redactedURL)' names no file: use sqlite:///path/to/file.sqlite")
        }
        return try await open(path: path, schema: schema, options: options)
    }
}
