import FetchKit
import FetchKitSQLite

#if Postgres
    import FetchKitPostgres
#endif

extension StoreRegistry {
    /// The backends `fetchkit` opens stores with by URL: SQLite, and PostgreSQL when built with the package trait
    /// `Postgres` (without it, a PostgreSQL URL fails with ``PostgresNotBuiltIn``).
    static var tool: StoreRegistry {
        #if Postgres
            [SQLiteStore.self, PostgresStore.self]
        #else
            [SQLiteStore.self, PostgresUnavailable.self]
        #endif
    }
}

extension StoreRegistry {
    /// Which change feed `store` reads and why, for `fetchkit watch` to say before it prints results.
    static func feedDescription(of store: any PersistentStore) -> String {
        #if Postgres
            if let store = store as? PostgresStore {
                guard let kind = store.changeFeedKind else { return "change feed: none (change capture is off)" }
                return "change feed: \(kind.rawValue) (\(store.changeFeedReason ?? "asked for"))"
            }
        #endif
        if store is SQLiteStore {
            return "change feed: SQLite's update and commit hooks, and the file's data version for other processes"
        }
        return "change feed: \(type(of: store))'s"
    }
}

/// The capture subcommands' defaults: the library's, so a script printed with no options matches a store opened
/// with none.
enum CaptureDefaults {
    /// `PostgresStore.Options.defaultNotificationRowLimit` (10,000), also where the tool is built without libpq.
    static var notificationRowLimit: Int {
        #if Postgres
            PostgresStore.Options.defaultNotificationRowLimit
        #else
            10_000
        #endif
    }
}
