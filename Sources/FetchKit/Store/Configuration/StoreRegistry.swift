#if Configuration
    import Configuration
#endif

/// The backends a deployment may pick from by configuration: the URL's scheme chooses.
///
/// ```swift
/// let registry: StoreRegistry = [SQLiteStore.self, PostgresStore.self]
/// let store = try await registry.open(config: try await StoreConfiguration.reader(), schema: schema)
/// ```
public struct StoreRegistry: Sendable, ExpressibleByArrayLiteral {
    private var backends: [String: any StoreBackend.Type] = [:]

    /// A registry of `backends`.
    public init(_ backends: [any StoreBackend.Type]) {
        for backend in backends { insert(backend) }
    }

    /// A registry of the listed backends: `[SQLiteStore.self, PostgresStore.self]`.
    public init(arrayLiteral backends: any StoreBackend.Type...) { self.init(backends) }

    /// Adds `backend` under each of its schemes (replacing a backend registered under the same scheme).
    public mutating func register(_ backend: any StoreBackend.Type) {
        insert(backend)
    }

    private mutating func insert(_ backend: any StoreBackend.Type) {
        for scheme in backend.urlSchemes { backends[scheme.lowercased()] = backend }
    }

    /// The registered schemes, sorted.
    public var schemes: [String] { backends.keys.sorted() }

    /// Opens the store `configuration.url` names with the backend registered for its scheme.
    ///
    /// - Throws: ``FetchKitError/Code/invalidURL`` for a URL without a scheme (the message shows it with its
    ///   password redacted) or with one no backend registered (the message shows only the scheme); the
    ///   backend's own errors.
    public func open(_ configuration: StoreConfiguration, schema: Schema) async throws -> any PersistentStore {
        try await backend(for: configuration).open(configuration, schema: schema)
    }

    /// Describes the existing table `table` with the backend registered for `configuration.url`'s scheme.
    ///
    /// - Throws: as ``open(_:schema:)`` does for the URL; the backend's own errors.
    public func describeTable(_ table: String, in configuration: StoreConfiguration) async throws -> Entity {
        try await backend(for: configuration).describeTable(table, configuration: configuration)
    }

    /// The plan that brings the database `configuration.url` names to `schema`, from the backend of its scheme
    /// (see ``StoreBackend/plan(_:configuration:)``).
    public func plan(_ schema: Schema, in configuration: StoreConfiguration) async throws -> SchemaPlan {
        try await backend(for: configuration).plan(schema, configuration: configuration)
    }

    /// Whether the database `configuration.url` names is ready for a store, from the backend of its scheme (see
    /// ``StoreBackend/diagnose(_:)``).
    ///
    /// - Throws: ``FetchKitError/Code/invalidURL`` when no backend serves the URL's scheme.
    public func diagnose(_ configuration: StoreConfiguration) async throws -> [DiagnosticCheck] {
        try await backend(for: configuration).diagnose(configuration)
    }

    /// The backend registered for the scheme of `configuration.url`.
    private func backend(for configuration: StoreConfiguration) throws -> any StoreBackend.Type {
        let url = configuration.url
        guard let colon = url.firstIndex(of: ":"), colon != url.startIndex,
            url[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) }), url.first?.isLetter == true
        else {
            throw FetchKitError.invalidURL(
                "'\(configuration.redactedURL)' has no scheme; use one of "
                    + "\(schemes.map { "\($0):" }.joined(separator: ", "))"
            )
        }
        let scheme = url[..<colon].lowercased()
        guard let backend = backends[scheme] else {
            // The rest of the URL is not shown: without a backend, nothing says where its password is.
            throw FetchKitError.invalidURL(
                "no store backend for URLs of scheme '\(scheme):'; registered: \(schemes.joined(separator: ", "))")
        }
        return backend
    }

    #if Configuration
        /// Reads a ``StoreConfiguration`` from `config` and opens its store.
        public func open(config: ConfigReader, schema: Schema) async throws -> any PersistentStore {
            try await open(StoreConfiguration(reader: config), schema: schema)
        }
    #endif
}
