import FetchKitBackendKit

extension SQLiteStore {
    /// The transaction ID of the last change published to ``changes()`` subscribers (0 before the first).
    public var lastTransactionID: UInt64 { changeCollector.feed.lastPublishedID }
}
