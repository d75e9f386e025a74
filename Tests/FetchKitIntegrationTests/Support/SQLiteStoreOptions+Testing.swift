import FetchKitSQLite

extension SQLiteStore.Options {
    /// Options for the integration tests' stores: two readers and a short busy timeout, so a failure never hangs.
    static func testing() -> SQLiteStore.Options {
        SQLiteStore.Options(readerCount: 2, busyTimeout: .seconds(2))
    }
}
