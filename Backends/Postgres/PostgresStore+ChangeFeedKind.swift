extension PostgresStore {
    /// How a store learns what other clients committed (``Options/changeFeed``).
    ///
    /// - ``triggers``: statement triggers notify the keys each statement changed (`LISTEN`/`NOTIFY`). Works on
    ///   every PostgreSQL, needs only the right to create triggers, and costs every write to a captured table
    ///   (the notification's payload, and commits that serialise on the notification queue).
    /// - ``logical``: the store reads the write-ahead log through logical replication (`pgoutput`): writers pay
    ///   nothing at commit, and each transaction arrives with the rows it wrote, so live results apply them
    ///   without re-reading. Needs `wal_level = logical`, a role with `REPLICATION`, and one replication slot
    ///   and one WAL sender per store.
    /// - ``auto``: ``logical`` when the server and the role allow it, else ``triggers``; the store logs which
    ///   (at info) and says it in its ``PostgresStore/description``.
    public enum ChangeFeedKind: String, Sendable, Hashable, CaseIterable {
        /// Triggers and `LISTEN`/`NOTIFY`.
        case triggers
        /// Logical replication of the write-ahead log.
        case logical
        /// Logical replication where the server allows it, else triggers.
        case auto
    }
}
