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
