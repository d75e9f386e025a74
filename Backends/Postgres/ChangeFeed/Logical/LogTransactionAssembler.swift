import FetchKit

/// Folds `pgoutput` messages into committed transactions: a value-type state machine, fed one message at a
/// time, that returns a ``LogTransaction`` at each commit.
///
/// It remembers each table's ``PgOutputMessage/Relation`` (sent before the table's first change in a session
/// and again after it is altered), follows only the store's tables — those of `schemaName` it has a key
/// column for — and keys every change by that column. A row changed twice in a transaction is folded as
/// ``TableChange/record(_:key:)`` folds it, and its last image is kept; an update that changes the key deletes
/// the old key and inserts the new one.
struct LogTransactionAssembler {
    /// The schema the store's tables live in.
    let schemaName: String
    /// The store's tables and their primary-key columns.
    let keyColumns: [String: String]
    /// The tables whose primary key is `char(n)`: the log carries their keys padded, fetches read them without.
    let paddedKeyTables: Set<String>
    /// Above this many keys in one transaction, a table's change is the whole table and its rows are not kept:
    /// memory stays bounded however many rows a transaction writes, and its controllers refetch.
    let rowLimit: Int
    /// Above this many keys in one transaction, a table's rows are no longer kept (its keys still are): the
    /// router re-reads them in chunks instead.
    let imageLimit: Int
    /// The followed foreign-key columns whose values changed rows held (``TableChange/references``).
    let references: PostgresReferenceColumns
    /// The tables of the open transaction past ``imageLimit``.
    private var imageless: Set<String> = []
    /// The tables of the open transaction with a row whose old foreign keys the log did not carry (an update or a
    /// delete without the whole old row: the table's replica identity is not `FULL`): their references are unknown.
    private var unknownReferences: Set<String> = []
    private var relations: [UInt32: PgOutputMessage.Relation] = [:]
    private var open: LogTransaction?

    init(
        schemaName: String, keyColumns: [String: String], paddedKeyTables: Set<String> = [],
        references: PostgresReferenceColumns = .init(), rowLimit: Int = 1_000_000, imageLimit: Int = 50_000
    ) {
        self.schemaName = schemaName
        self.keyColumns = keyColumns
        self.paddedKeyTables = paddedKeyTables
        self.references = references
        self.rowLimit = rowLimit
        self.imageLimit = min(imageLimit, rowLimit)
    }

    /// Whether a transaction has begun and not yet committed: the log up to the last message is not all
    /// handed on.
    var isInTransaction: Bool { open != nil }

    /// Forgets the transaction being received (its messages cannot be trusted: the consumer resyncs).
    mutating func abandonTransaction() { open = nil }

    /// Forgets everything, relations included: a new session describes every table again.
    mutating func reset() {
        open = nil
        relations = [:]
    }

    /// Takes the next message of the stream.
    /// `sentAt` is when the server sent the message (its clock, microseconds since 2000): a commit's age is
    /// measured against it.
    ///
    /// - Returns: the transaction that `message` commits, if it is a commit.
    /// - Throws: ``FetchKitError/Code/inconsistency`` for a change outside a transaction, to a relation the
    ///   stream has not described, or without a usable key; the row image's errors (``LogRow``). The stream
    ///   cannot be trusted past such a message: its consumer resyncs.
    mutating func receive(_ message: PgOutputMessage, sentAt: Int64 = 0) throws -> LogTransaction? {
        switch message {
        case .begin(let final, _, let transactionID):
            imageless = []
            unknownReferences = []
            open = LogTransaction(transactionID: transactionID, commit: final, end: final, tables: [:], rows: [:])
        case .commit(let position, let end, let committedAt):
            guard var transaction = open else { throw FetchKitError.inconsistency("a commit outside a transaction") }
            open = nil
            transaction.commit = position
            transaction.end = end
            transaction.age = max(0, sentAt - committedAt)
            for table in unknownReferences { transaction.tables[table]?.references = [:] }
            return transaction
        case .relation(let relation):
            relations[relation.id] = relation
        case .insert(let id, let new):
            guard let (table, key, relation) = try target(id), !isWholeTable(table) else { return nil }
            let row = try relation.row(new)
            try record(.insert, table: table, key: try value(of: key, in: row, table: table), row: row)
            recordReferences(of: [row], table: table)
        case .update(let id, let old, let new):
            guard let (table, key, relation) = try target(id), !isWholeTable(table) else { return nil }
            let row = try relation.row(new)
            let newKey = try value(of: key, in: row, table: table)
            // An old image comes when the key changed (or the table logs whole old rows): the old key is gone.
            if let old, case let oldKey = try value(of: key, in: try relation.row(old.values), table: table),
                oldKey != newKey
            {
                try record(.delete, table: table, key: oldKey, row: nil)
                try record(.insert, table: table, key: newKey, row: row)
            } else {
                try record(.update, table: table, key: newKey, row: row)
            }
            if case .row(let values)? = old {
                recordReferences(of: [row, try relation.row(values)], table: table)
            } else {
                recordReferences(of: nil, table: table)
            }
        case .delete(let id, let old):
            guard let (table, key, relation) = try target(id), !isWholeTable(table) else { return nil }
            let oldRow = try relation.row(old.values)
            try record(.delete, table: table, key: try value(of: key, in: oldRow, table: table), row: nil)
            if case .row = old {
                recordReferences(of: [oldRow], table: table)
            } else {
                recordReferences(of: nil, table: table)
            }
        case .truncate(let ids, _, _):
            guard open != nil else { throw FetchKitError.inconsistency("a truncate outside a transaction") }
            for id in ids {
                guard let (table, _, _) = try target(id) else { continue }
                open?.tables[table] = TableChange(isWholeTable: true)
                open?.rows[table] = nil
            }
        case .type, .origin, .message:
            break
        }
        return nil
    }

    /// The store's table that relation `id` is, its key column and its description; `nil` for a table the
    /// store does not have.
    private func target(_ id: UInt32) throws -> (String, String, PgOutputMessage.Relation)? {
        guard let relation = relations[id] else {
            throw FetchKitError.inconsistency("a change to relation \(id), which the stream has not described")
        }
        guard relation.namespace == schemaName, let key = keyColumns[relation.name] else { return nil }
        return (relation.name, key, relation)
    }

    /// Whether the open transaction's change to `table` is already the whole table (its rows are not read).
    private func isWholeTable(_ table: String) -> Bool { open?.tables[table]?.isWholeTable == true }

    private func value(of key: String, in row: LogRow, table: String) throws -> Value {
        guard let value = row.values[key], value != .null else {
            throw FetchKitError.inconsistency(
                "a row of \(schemaName).\(table) from the log has no value for its key \(SafeText.quoted(key))")
        }
        return paddedKeyTables.contains(table) ? value.withoutCharPadding : value
    }

    /// Records the followed foreign keys `rows` (the row's images before and after) held; `nil`: the log did not
    /// carry the old row, so the table's references are unknown in this transaction.
    private mutating func recordReferences(of rows: [LogRow]?, table: String) {
        guard let columns = references.byTable[table], open?.tables[table]?.isWholeTable == false else { return }
        guard let rows, !unknownReferences.contains(table) else {
            unknownReferences.insert(table)
            return
        }
        for column in columns {
            for row in rows {
                // A value the image lacks (unchanged TOAST, unreadable) cannot be trusted: unknown.
                guard let value = row.values[column.column], !row.missing.contains(column.column) else {
                    unknownReferences.insert(table)
                    return
                }
                open?.tables[table]?.recordReference(
                    column.padded ? value.withoutCharPadding : value, attribute: column.attribute)
            }
        }
    }

    private mutating func record(_ operation: TableChange.Operation, table: String, key: Value, row: LogRow?) throws {
        guard open != nil else {
            throw FetchKitError.inconsistency("a change to \(schemaName).\(table) outside a transaction")
        }
        open?.tables[table, default: TableChange()].record(operation, key: key)
        if !imageless.contains(table) { open?.rows[table, default: [:]][key] = row }
        guard let change = open?.tables[table] else { return }
        let count = change.inserted.count + change.updated.count + change.deleted.count
        if count > rowLimit {
            open?.tables[table] = TableChange(isWholeTable: true)
            open?.rows[table] = nil
        } else if count > imageLimit, !imageless.contains(table) {
            imageless.insert(table)
            open?.rows[table] = nil
        }
    }
}
