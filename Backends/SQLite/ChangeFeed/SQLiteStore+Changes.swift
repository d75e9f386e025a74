import FetchKitBackendKit

extension SQLiteStore {
    /// The store's change feed: one ``StoreChange`` per committed write, in commit order; a change with
    /// ``StoreChange/isResync`` when another connection or process committed.
    ///
    /// A change is published after its `COMMIT` returns, so a fetch started on receipt sees it. Its
    /// tables are keyed by table name and name every inserted, updated and deleted primary key —
    /// conservatively: a key may be named that did not end up changed (a failed statement inside a
    /// committed write, a row inserted then deleted), never the other way round. A table with
    /// ``TableChange/isWholeTable`` set could not be described row by row (another UNIQUE index on it,
    /// or a schema change in the write). Writes that change nothing publish nothing.
    ///
    /// Commits by other connections are noticed by polling `PRAGMA data_version` every
    /// ``Options/dataVersionPollInterval`` (file stores only) and arrive as a resync.
    ///
    /// The stream buffers without limit, so the writer never waits for a slow consumer; consume
    /// promptly. Ending the iteration (or cancelling its task) unsubscribes; ``close()`` ends every stream.
    ///
    /// ```swift
    /// for await change in store.changes() {
    ///     if change.touches("todo") { try await reload() }
    /// }
    /// ```
    public var changeFeed: ChangeFeed { changeCollector.feed }
}
