import FetchKitBackendKit

extension SQLiteStore.Options {
    /// Options from a deployment's configuration: its reader count and logger, and the SQLite keys of its
    /// reader, each left at its default when not set.
    ///
    /// - `fetchkit.sqlite.dataVersionPollMilliseconds` (`FETCHKIT_SQLITE_DATA_VERSION_POLL_MILLISECONDS`): how often
    ///   the store looks for other processes' commits, default 100.
    ///
    /// - Throws: ``FetchKitError/Code/invalidValue`` naming a key whose value is zero or negative.
    public init(configuration: StoreConfiguration) throws {
        self.init()
        logger = configuration.logger
        if let readers = configuration.readerCount { readerCount = readers }
        if let poll = try configuration.positiveInteger("fetchkit.sqlite.dataVersionPollMilliseconds") {
            dataVersionPollInterval = .milliseconds(poll)
        }
    }
}
