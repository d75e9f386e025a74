import FetchKitBackendKit

extension LogicalFeed {
    /// Makes the publication name exactly the store's tables, opens a replication connection, creates or finds
    /// the slot and starts streaming; `resumed` when a persistent slot existed (it continues where it was
    /// confirmed).
    func connect() throws -> (connection: PostgresConnection, resumed: Bool) {
        // The replication connection first: a role without REPLICATION is the commonest refusal, and says so.
        let connection = try PostgresConnection.openReplication(settings.url, extra: options.keepaliveParameters)
        do {
            let ordinary = try PostgresConnection.open(settings.url, extra: options.keepaliveParameters)
            defer { ordinary.close() }
            try preparePublication(on: ordinary)
        } catch {
            connection.close()
            throw error
        }
        do {
            let slot: String
            let resumed: Bool
            switch settings.slot {
            case .temporary(let prefix):
                slot = nextTemporarySlot(prefix: prefix)
                try connection.replicationCommand(LogicalReplicationCommands.createSlot(slot, temporary: true))
                resumed = false
            case .persistent(let name):
                slot = name
                try LogicalReplicationCommands.validateSlotName(name)
                // The name is checked (lower-case letters, digits, underscores): it is its own literal.
                let found = try connection.replicationCommand(
                    "SELECT 1 FROM pg_catalog.pg_replication_slots WHERE slot_name = '\(name)'")
                resumed = found.rowCount > 0
                if resumed, let abandoned = abandonedPID.withLock({ $0 }) {
                    // Our own WAL sender from before may live on (its client vanished) and hold the slot: end it.
                    try connection.replicationCommand(
                        "SELECT pg_terminate_backend(active_pid) FROM pg_catalog.pg_replication_slots "
                            + "WHERE slot_name = '\(name)' AND active_pid = \(abandoned)")
                }
                if !resumed {
                    try connection.replicationCommand(LogicalReplicationCommands.createSlot(name, temporary: false))
                    logger.info("created replication slot", metadata: ["slot": "\(name)"])
                }
            }
            var resumedSlot = resumed
            do {
                try connection.startStreaming(
                    LogicalReplicationCommands.startReplication(
                        slot: slot, from: .zero, publication: settings.publication))
            } catch let error as FetchKitError where resumed && Self.isInvalidated(error) {
                // The server gave the slot up (it kept more log than max_slot_wal_keep_size): make it again, and
                // resync what it lost.
                logger.warning(
                    "replication slot was invalidated; making it again", metadata: ["slot": "\(slot)"])
                try connection.replicationCommand(LogicalReplicationCommands.dropSlot(slot))
                try connection.replicationCommand(LogicalReplicationCommands.createSlot(slot, temporary: false))
                try connection.startStreaming(
                    LogicalReplicationCommands.startReplication(
                        slot: slot, from: .zero, publication: settings.publication))
                resumedSlot = false
            }
            streamingPID.withLock { $0 = connection.backendPID }
            abandonedPID.withLock { $0 = nil }
            currentSlot.withLock { $0 = slot }
            return (connection, resumedSlot)
        } catch {
            connection.close()
            throw error
        }
    }

    /// Whether `error` says the slot was invalidated: it kept more log than `max_slot_wal_keep_size`
    /// (PostgreSQL 15: "cannot read from logical replication slot … (This slot has been invalidated …)").
    static func isInvalidated(_ error: FetchKitError) -> Bool {
        error.message.contains("invalidated") || error.message.contains("can no longer get changes")
    }

    /// Creates the publication for the store's tables on `connection` (an ordinary one), or makes an existing one
    /// name exactly them (a table someone removed from it would otherwise go silent); returns whether it changed
    /// anything.
    @discardableResult
    func preparePublication(on connection: PostgresConnection) throws -> Bool {
        let tables = settings.keyColumns.keys.sorted()
        let name = settings.publication
        let exists =
            try connection.execute(
                "SELECT 1 FROM pg_catalog.pg_publication WHERE pubname = $1", [.text(name)]
            ).rowCount > 0
        let current = try connection.execute(
            "SELECT schemaname || '.' || tablename AS qualified FROM pg_catalog.pg_publication_tables "
                + "WHERE pubname = $1", [.text(name)]
        ).rows().compactMap { row -> String? in
            if case .text(let text)? = row["qualified"] { return text }
            return nil
        }
        let wanted = Set(tables.map { "\(settings.schemaName).\($0)" })
        do {
            if !exists {
                try connection.run(
                    LogicalReplicationCommands.createPublication(name, schema: settings.schemaName, tables: tables))
                logger.info("created publication", metadata: ["publication": "\(name)"])
                return true
            } else if Set(current) != wanted {
                try connection.run(
                    LogicalReplicationCommands.setPublicationTables(
                        name, schema: settings.schemaName, tables: tables))
                logger.info(
                    "set the publication's tables to the store's",
                    metadata: ["publication": "\(name)", "had": "\(current.sorted())"])
                return true
            }
            return false
        } catch let error as FetchKitError where error.code == .permissionDenied {
            throw FetchKitError.permissionDenied(
                "the logical change feed's publication \(name) cannot be made: \(error.message). "
                    + "`fetchkit capture-sql --feed logical` prints what a DBA runs")
        } catch let error as FetchKitError where "\(error)".contains("42710") && !exists {
            // Another instance of the app created it first: make it name the tables.
            try connection.run(
                LogicalReplicationCommands.setPublicationTables(name, schema: settings.schemaName, tables: tables))
            return true
        }
    }
}
