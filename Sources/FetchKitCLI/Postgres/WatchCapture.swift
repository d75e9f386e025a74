import FetchKit

#if Postgres
    import FetchKitPostgres
#endif

/// The change-capture triggers `fetchkit watch` installs on a PostgreSQL table (its trigger feed needs them): noted
/// before the store opens, removed once it has closed — unless the table had them already, or `--keep-capture`
/// asks to keep them. The shared trigger function stays (other tables and stores may use it).
struct WatchCapture {
    /// The table's triggers before the store opened: `nil` when the store is not PostgreSQL.
    private let hadTriggers: Bool?
    private let table: String
    private let store: String

    /// Notes whether `table` of the database `store` names carries the triggers now.
    static func before(table: String, store: String) async throws -> WatchCapture {
        #if Postgres
            if let url = try? PostgresURL(store) {
                return WatchCapture(
                    hadTriggers: try await PostgresStore.hasChangeCaptureTriggers(onTable: table, url: url),
                    table: table, store: store)
            }
        #endif
        return WatchCapture(hadTriggers: nil, table: table, store: store)
    }

    /// Removes the triggers the watch installed, if it did; returns what it did, for standard error.
    func cleanUp() async throws -> String? {
        #if Postgres
            guard hadTriggers == false, let url = try? PostgresURL(store),
                try await PostgresStore.hasChangeCaptureTriggers(onTable: table, url: url)
            else { return nil }
            try await PostgresStore.removeChangeCaptureTriggers(fromTables: [table], url: url)
            return "removed the change-capture triggers watch installed on \(table) (--keep-capture keeps them)"
        #else
            return nil
        #endif
    }
}
