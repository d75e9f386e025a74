import FetchKit

/// The row changes one transaction has made so far, in order, with its open savepoints.
///
/// Events are appended as the hooks report them and folded into ``TableChange``s when the
/// transaction commits. Keeping the events (rather than folding at once) lets `ROLLBACK TO` a
/// savepoint drop exactly the changes made after it: the log is cut back to its length when the
/// savepoint began.
struct SQLiteChangeLog {
    /// What happened to one row, or to a whole table.
    enum Operation: UInt8 {
        case insert, update, delete
        /// The table changed in ways the hooks cannot name row by row.
        case wholeTable
        /// A changed row's foreign key held a value (before or after the change).
        case reference
    }

    /// One reported change of the table at `table` (an index into the tracked tables): a row's key, or for a
    /// ``Operation/reference`` the value its foreign key at index `column` held.
    struct Event {
        var table: Int
        var operation: Operation
        var key: Value
        var column = 0
    }

    private(set) var events: [Event] = []
    /// Open savepoints: name (ASCII-lowercased, as SQLite compares them) and the log length when it began.
    private var savepoints: [(name: String, start: Int)] = []
    /// Where each table's whole-table event sits (checked before use: the log may have been cut back).
    private var wholeTableEvents: [Int: Int] = [:]

    var isEmpty: Bool { events.isEmpty }

    mutating func append(_ operation: Operation, table: Int, key: Value) {
        events.append(Event(table: table, operation: operation, key: key))
    }

    /// Records that a changed row of `table` held `value` in its foreign key at index `column`.
    mutating func appendReference(_ value: Value, table: Int, column: Int) {
        events.append(Event(table: table, operation: .reference, key: value, column: column))
    }

    /// Marks `table` whole-table, once: nothing is appended while the log still holds such an event.
    ///
    /// - Complexity: O(1).
    mutating func appendWholeTable(_ table: Int) {
        if let index = wholeTableEvents[table], index < events.count,
            events[index].table == table, events[index].operation == .wholeTable
        {
            return
        }
        wholeTableEvents[table] = events.count
        append(.wholeTable, table: table, key: .null)
    }

    /// Forgets every event and savepoint.
    mutating func removeAll() {
        events.removeAll(keepingCapacity: events.count < 4096)
        savepoints.removeAll()
        wholeTableEvents.removeAll()
    }

    /// Follows a savepoint statement the way SQLite runs it.
    ///
    /// `SAVEPOINT n` opens a savepoint; `RELEASE n` closes `n` and every savepoint opened after it,
    /// keeping their changes; `ROLLBACK TO n` drops the changes made since `n` began and closes the
    /// savepoints opened after it (`n` stays open). A name no open savepoint has changes nothing
    /// (SQLite fails the statement).
    mutating func apply(_ command: SQLiteSavepointCommand) {
        switch command {
        case .begin(let name):
            savepoints.append((name, events.count))
        case .release(let name):
            guard let index = savepoints.lastIndex(where: { $0.name == name }) else { return }
            savepoints.removeSubrange(index...)
        case .rollbackTo(let name):
            guard let index = savepoints.lastIndex(where: { $0.name == name }) else { return }
            events.removeSubrange(savepoints[index].start...)
            savepoints.removeSubrange((index + 1)...)
        }
    }

    /// The changes per table, keyed by `names[event.table]`, with the values of the foreign keys
    /// `references[event.table]` names (``TableChange/references``: every changed row reports them).
    ///
    /// A key's first and last operation decide: last deleted → deleted; otherwise first inserted →
    /// inserted, else updated. A row inserted and then deleted is reported deleted — an insert event
    /// does not prove the key was new (`INSERT OR REPLACE` over an existing row reports an insert),
    /// so dropping the key could hide the deletion of a row that existed before the transaction.
    ///
    /// - Complexity: O(*n*) in the number of events.
    func tableChanges(names: [String], references: [[String]] = []) -> [String: TableChange] {
        var keys: [Int: [Value: (first: Operation, last: Operation)]] = [:]
        var wholeTables: Set<Int> = []
        var referenced: [Int: [Int: Set<Value>]] = [:]
        for event in events {
            if event.operation == .wholeTable {
                wholeTables.insert(event.table)
                if keys[event.table] == nil { keys[event.table] = [:] }
                continue
            }
            if event.operation == .reference {
                guard !event.key.isNull else { continue }
                referenced[event.table, default: [:]][event.column, default: []].insert(event.key)
                continue
            }
            keys[event.table, default: [:]][event.key, default: (event.operation, event.operation)].last =
                event.operation
        }
        var changes: [String: TableChange] = [:]
        for (table, states) in keys {
            var change = TableChange(isWholeTable: wholeTables.contains(table))
            if !change.isWholeTable, references.indices.contains(table) {
                for (column, name) in references[table].enumerated() {
                    change.references[name] = referenced[table]?[column] ?? []
                }
            }
            for (key, state) in states {
                if state.last == .delete {
                    change.deleted.insert(key)
                } else if state.first == .insert {
                    change.inserted.insert(key)
                } else {
                    change.updated.insert(key)
                }
            }
            changes[names[table]] = change
        }
        return changes
    }
}
