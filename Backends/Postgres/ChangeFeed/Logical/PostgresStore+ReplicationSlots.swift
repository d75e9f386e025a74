import FetchKitBackendKit

extension PostgresStore {
    /// A logical replication slot of a database (`fetchkit slots` lists them).
    ///
    /// A slot keeps every byte of write-ahead log from its restart position on until its consumer confirms it:
    /// a persistent slot nobody reads fills the server's disk (set `max_slot_wal_keep_size`), so drop the ones
    /// no store uses any more.
    public struct ReplicationSlot: Sendable, Hashable {
        /// The slot's name.
        public var name: String
        /// A temporary slot goes with its connection (the logical feed's default).
        public var isTemporary: Bool
        /// The server process streaming from it, `nil` while nobody is.
        public var activeProcess: Int32?
        /// Bytes of write-ahead log the server keeps for it: from its restart position to the log's end.
        public var retainedBytes: Int64
        /// How far its consumer has confirmed, as PostgreSQL prints positions (`16/B374D848`).
        public var confirmedPosition: String?
    }

    /// The database's logical slots that use `pgoutput` (FetchKit's, and any other consumer's of that plugin).
    ///
    /// - Throws: connection errors.
    public static func replicationSlots(url: PostgresURL) async throws -> [ReplicationSlot] {
        try await withOneConnection(url, name: "fk.pg.slots") { connection in try slots(on: connection, named: nil) }
    }

    /// The slot the store's logical feed streams from, with what it retains; `nil` for a store without that
    /// feed, or while it reconnects.
    ///
    /// - Throws: connection errors.
    public func replicationSlot() async throws -> ReplicationSlot? {
        guard let name = logicalFeed?.slotName else { return nil }
        // On the writer: a read replica's readers would see the standby's slots, not the primary's.
        return try await writer.run { connection in try Self.slots(on: connection, named: name).first }
    }

    /// Drops the slot `name`, freeing the log it retains. A slot in use is waited for up to 5 seconds (the WAL
    /// sender of a store that just closed takes a moment to end), then refused.
    ///
    /// - Throws: ``FetchKitError/Code/invalidValue`` for a name that cannot be a slot's; ``FetchKitError/Code/busy``
    ///   when the slot is in use (stop its store first); ``FetchKitError/Code/permissionDenied`` without the
    ///   `REPLICATION` attribute; the server's error for a slot that does not exist.
    public static func dropReplicationSlot(_ name: String, url: PostgresURL) async throws {
        try LogicalReplicationCommands.validateSlotName(name)
        let deadline = ContinuousClock.now + .seconds(5)
        while true {
            do {
                try await withOneConnection(url, name: "fk.pg.slots") { connection in
                    _ = try connection.execute("SELECT pg_catalog.pg_drop_replication_slot($1)::text", [.text(name)])
                }
                return
            } catch let error as FetchKitError where "\(error)".contains("55006") {
                guard ContinuousClock.now < deadline else {
                    throw FetchKitError.busy(
                        "replication slot \(name) is in use: stop the store streaming from it first")
                }
                try await Task.sleep(for: .milliseconds(20))
            }
        }
    }

    static func slots(on connection: PostgresConnection, named name: String?) throws -> [ReplicationSlot] {
        let rows = try connection.execute(
            """
            SELECT slot_name::text AS name, temporary, active_pid,
                   COALESCE(pg_wal_lsn_diff(pg_current_wal_lsn(), restart_lsn), 0)::bigint AS retained,
                   confirmed_flush_lsn::text AS confirmed
            FROM pg_catalog.pg_replication_slots
            WHERE plugin = 'pgoutput' AND database = current_database() AND ($1::text IS NULL OR slot_name = $1)
            ORDER BY slot_name
            """, [name.map(Value.text) ?? .null]
        ).rows()
        return rows.map { row in
            var pid: Int32?
            if case .integer(let value)? = row["active_pid"] { pid = Int32(truncatingIfNeeded: value) }
            var retained: Int64 = 0
            if case .integer(let value)? = row["retained"] { retained = value }
            var confirmed: String?
            if case .text(let text)? = row["confirmed"] { confirmed = text }
            return ReplicationSlot(
                name: row["name", as: String.self] ?? "", isTemporary: row["temporary"] == .bool(true),
                activeProcess: pid, retainedBytes: retained, confirmedPosition: confirmed)
        }
    }
}
