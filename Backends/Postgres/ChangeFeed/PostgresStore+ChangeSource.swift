import FetchKitBackendKit
import Foundation
import Logging

extension PostgresStore {
    /// The trigger feed's listener, when the store reads that feed.
    var listener: PostgresListener? { source as? PostgresListener }
    /// The logical feed, when the store reads that one.
    var logicalFeed: LogicalFeed? { source as? LogicalFeed }

    /// Starts the change source ``Options/changeFeed`` asks for; with ``ChangeFeedKind/auto``, the logical feed
    /// when the server runs `wal_level = logical` and the feed starts (the role may replicate, a slot is free),
    /// else the triggers (logging why, at info).
    static func startChangeSource(
        url: PostgresURL, schema: Schema, options: Options, nativeColumns: NativeColumns,
        writer: ConnectionPool<PostgresConnection>, feed: ChangeFeed
    ) async throws -> (source: any PostgresChangeSource, reason: String) {
        let schemaName = try await writer.run { connection in try connection.currentSchema() }
        let paddedKeyTables = Set(
            schema.entities.filter { entity in
                nativeColumns[entity.table]?[entity.primaryKeyAttribute.column]?.keyComparison == .unpaddedText
            }.map(\.table))
        let references = PostgresReferenceColumns(schema: schema, paddedKeyTables: paddedKeyTables)
        func logical() async throws -> LogicalFeed {
            let settings = LogicalFeed.Settings(
                url: options.listener.url ?? url,
                publication: options.publication ?? defaultPublication(schemaName: schemaName, schema: schema),
                slot: try options.replicationSlot.map { name in
                    try LogicalReplicationCommands.validateSlotName(name)
                    return .persistent(name)
                } ?? .temporary(prefix: temporarySlotPrefix()),
                schemaName: schemaName,
                keyColumns: Dictionary(
                    schema.entities.map { ($0.table, $0.primaryKeyAttribute.column) }, uniquingKeysWith: { $1 }),
                paddedKeyTables: paddedKeyTables, references: references,
                images: LogImageMaker(schema: schema, nativeColumns: nativeColumns))
            return try await LogicalFeed.start(
                settings: settings, options: options.listener, feed: feed, logger: options.logger,
                label: options.label)
        }
        func triggers() async throws -> PostgresListener {
            let capture = PostgresChangeCapture(channel: options.channel, rowLimit: options.notificationRowLimit)
            let tables = capturedTables(of: schema)
            try await writer.run { connection in try capture.install(on: connection, tables: tables) }
            return try await PostgresListener.start(
                url: options.listener.url ?? url, channel: options.channel, schemaName: schemaName,
                paddedKeyTables: paddedKeyTables, references: references, options: options.listener, feed: feed,
                logger: options.logger, label: options.label)
        }
        switch options.changeFeed {
        case .triggers:
            return (try await triggers(), "triggers were asked for")
        case .logical:
            return (try await logical(), "the write-ahead log was asked for")
        case .auto:
            let reason: String
            if let missing = try await writer.run({ connection in try logicalReplicationMissing(on: connection) }) {
                reason = missing
            } else {
                do {
                    return (try await logical(), "auto: the server runs wal_level = logical and the feed started")
                } catch let error as FetchKitError
                    where [.unsupported, .permissionDenied, .tooManyConnections].contains(error.code)
                {
                    reason = error.message
                }
            }
            options.logger.info(
                "change feed: triggers (logical replication unavailable)", metadata: ["why": "\(reason)"])
            return (try await triggers(), "auto: logical replication is unavailable: \(reason)")
        }
    }

    /// Why the logical feed cannot run on `connection`'s server, or `nil` when it may: `wal_level` must be
    /// `logical`. The role's right to replicate is left to the attempt, which a managed service may grant
    /// through a role of its own (`rds_replication`) rather than the `REPLICATION` attribute.
    static func logicalReplicationMissing(on connection: PostgresConnection) throws -> String? {
        let rows = try connection.execute("SELECT current_setting('wal_level') AS level").rows()
        guard case .text(let level)? = rows.first?["level"] else { return "the server's wal_level could not be read" }
        return level == "logical" ? nil : "wal_level is \(level), not logical"
    }

    /// `fetchkit_`, the namespace (its letters, digits and underscores, at most 32), and a hash of the
    /// namespace and tables: every instance of the app shares it, and another schema's stores get their own.
    static func defaultPublication(schemaName: String, schema: Schema) -> String {
        defaultPublication(schemaName: schemaName, tables: schema.entities.map(\.table))
    }

    /// ``defaultPublication(schemaName:schema:)`` for `tables`.
    static func defaultPublication(schemaName: String, tables: [String]) -> String {
        let tables = tables.sorted()
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in ([schemaName] + tables).joined(separator: "\u{0}").utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        let readable = String(
            schemaName.lowercased().filter { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
                .prefix(32))
        return "fetchkit_\(readable)_\(String(hash >> 32, radix: 16))"
    }

    /// `fetchkit_`, this process's ID and a random suffix: temporary slots of two processes, or of two stores in
    /// one, never collide.
    static func temporarySlotPrefix() -> String {
        "fetchkit_\(ProcessInfo.processInfo.processIdentifier)_\(String(UInt32.random(in: 0...UInt32.max), radix: 16))"
    }
}
