/// A message of PostgreSQL's built-in logical decoding plugin, `pgoutput` (protocol version 1), as a
/// ``ReplicationStreamMessage/logData(start:end:sentAt:payload:)`` carries it.
///
/// A transaction arrives as `begin`, then its changes (each table's `relation` before its first change in a
/// session and again after the table is altered), then `commit`. Values are text, as `psql` shows them.
enum PgOutputMessage: Equatable, Sendable {
    /// A transaction starts; it commits at `finalPosition`.
    case begin(finalPosition: LogPosition, committedAt: Int64, transactionID: UInt32)
    /// The transaction committed: its commit record is at `position` and ends at `end` (what to acknowledge).
    case commit(position: LogPosition, end: LogPosition, committedAt: Int64)
    /// The transaction came from elsewhere (a replication origin).
    case origin(position: LogPosition, name: String)
    /// A table's shape: what the following changes to `id` carry, column by column.
    case relation(Relation)
    /// A type that is not built in (an enum, a domain: then its base type's name).
    case type(id: UInt32, namespace: String, name: String)
    case insert(relation: UInt32, new: [Value])
    /// An update: `old` is the key's columns when the key changed (`.key`), the whole old row under `REPLICA
    /// IDENTITY FULL` (`.row`), else `nil`.
    case update(relation: UInt32, old: OldImage?, new: [Value])
    case delete(relation: UInt32, old: OldImage)
    case truncate(relations: [UInt32], cascade: Bool, restartIdentity: Bool)
    /// A logical decoding message (`pg_logical_emit_message`).
    case message(transactional: Bool, position: LogPosition, prefix: String, content: [UInt8])

    /// A table as the log describes it.
    struct Relation: Equatable, Sendable {
        struct Column: Equatable, Sendable {
            var name: String
            /// Whether the column is part of the replica identity (the primary key, by default).
            var isKey: Bool
            var typeID: UInt32
            var typeModifier: Int32
        }

        var id: UInt32
        /// The schema (`""` for `pg_catalog`).
        var namespace: String
        var name: String
        /// `d` default (the primary key), `n` nothing, `f` full, `i` an index.
        var replicaIdentity: Character
        var columns: [Column]
    }

    /// A column's value in a row image.
    enum Value: Equatable, Sendable {
        case null
        /// A TOASTed value the update did not change, and the log does not carry.
        case unchanged
        case text(String)
        case binary([UInt8])
    }

    /// The old row an update or a delete carries.
    enum OldImage: Equatable, Sendable {
        /// The replica identity's columns (the others `null`).
        case key([Value])
        /// The whole old row (`REPLICA IDENTITY FULL`).
        case row([Value])

        /// The image's values, column by column.
        var values: [Value] {
            switch self {
            case .key(let values), .row(let values): values
            }
        }
    }
}
