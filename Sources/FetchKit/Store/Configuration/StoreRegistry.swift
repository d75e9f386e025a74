import Configuration

/// A storage backend a ``StoreRegistry`` can open by URL scheme. FetchKitSQLite's `SQLiteStore` and
/// FetchKitPostgres's `PostgresStore` conform; a third-party backend joins the same way.
///
/// ```swift
/// extension MyStore: StoreBackend {
///     static var urlSchemes: [String] { ["mystore"] }
///     static func open(_ configuration: StoreConfiguration, schema: Schema) async throws -> any PersistentStore { … }
/// }
/// ```
public protocol StoreBackend: SendableMetatype {
    /// The URL schemes it opens, lowercase (`["postgres", "postgresql"]`).
    static var urlSchemes: [String] { get }
    /// Opens the store `configuration.url` names, with `schema`.
    static func open(_ configuration: StoreConfiguration, schema: Schema) async throws -> any PersistentStore
}

/// The backends a deployment may pick from by configuration: the URL's scheme chooses.
///
/// ```swift
/// let registry: StoreRegistry = [SQLiteStore.self, PostgresStore.self]
/// let store = try await registry.open(config: try await StoreConfiguration.reader(), schema: schema)
/// ```
public struct StoreRegistry: Sendable, ExpressibleByArrayLiteral {
    private var openers: [String: @Sendable (StoreConfiguration, Schema) async throws -> any PersistentStore] = [:]

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

    /// Opens the existential, so that the opener captures the concrete (Sendable) metatype.
    private mutating func insert<Backend: StoreBackend>(_ backend: Backend.Type) {
        for scheme in backend.urlSchemes {
            openers[scheme.lowercased()] = { configuration, schema in try await Backend.open(configuration, schema: schema) }
        }
    }

    /// The registered schemes, sorted.
    public var schemes: [String] { openers.keys.sorted() }

    /// Opens the store `configuration.url` names with the backend registered for its scheme.
    ///
    /// - Throws: ``FetchKitError/invalidURL(_:)`` for a URL without a scheme (the message shows it with its
    ///   password redacted) or with one no backend registered (the message shows only the scheme); the
    ///   backend's own errors.
    public func open(_ configuration: StoreConfiguration, schema: Schema) async throws -> any PersistentStore {
        let url = configuration.url
        guard let colon = url.firstIndex(of: ":"), colon != url.startIndex,
              url[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) }), url.first?.isLetter == true
        else {
            throw FetchKitError.invalidURL(
                "'\(configuration.redactedURL)' has no scheme; use one of \(schemes.map { "\($0):" }.joined(separator: ", "))")
        }
        let scheme = url[..<colon].lowercased()
        guard let opener = openers[scheme] else {
            // The rest of the URL is not shown: without a backend, nothing says where its password is.
            throw FetchKitError.invalidURL(
                "no store backend for URLs of scheme '\(scheme):'; registered: \(schemes.joined(separator: ", "))")
        }
        return try await opener(configuration, schema)
    }

    /// Reads a ``StoreConfiguration`` from `config` and opens its store.
    public func open(config: ConfigReader, schema: Schema) async throws -> any PersistentStore {
        try await open(StoreConfiguration(reader: config), schema: schema)
    }
}
