import FetchKitBackendKit

extension InMemoryStore: StoreBackend {
    /// `memory:`: a test deployment switches to an in-memory store by configuration alone
    /// (`FETCHKIT_STORE_URL=memory:`).
    public static var urlSchemes: [String] { ["memory"] }

    /// A new, empty store of `schema` for any `memory:` URL (two opens are two stores).
    ///
    /// ```swift
    /// let registry: StoreRegistry = [SQLiteStore.self, InMemoryStore.self]
    /// let store = try await registry.open(StoreConfiguration(url: "memory:"), schema: schema)
    /// ```
    public static func open(_ configuration: StoreConfiguration, schema: Schema) async throws -> any PersistentStore {
        InMemoryStore(schema: schema)
    }
}
