@_spi(Backend) import FetchKit

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
                if !resumed {
                    try connection.replicationCommand(LogicalReplicationCommands.createSlot(name, temporary: false))
                    logger.info("created replication slot", metadata: ["slot": "\(name)"])
                }
            }
            try connection.startStreaming(
                LogicalReplicationCommands.startReplication(
                    slot: slot, from: .zero, publication: settings.publication))
            streamingPID.withLock { $0 = connection.backendPID }
            currentSlot.withLock { $0 = slot }
            return (connection, resumed)
        } catch {
            connection.close()
            throw error
        }
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
