/// A connection's prepared statements, keyed by SQL text, evicting the least recently used.
///
/// A statement is checked out while it runs, so the same SQL used re-entrantly gets a fresh
/// statement rather than one mid-step. Checking in resets it and clears its bindings.
final class SQLiteStatementCache {
    private struct Entry {
        var statement: SQLiteStatement
        var lastUse: UInt64
    }

    /// How many statements stay prepared.
    let capacity: Int
    /// Check-outs served from the cache.
    private(set) var hits = 0
    /// Check-outs that had to prepare.
    private(set) var misses = 0
    private var entries: [String: Entry] = [:]
    private var clock: UInt64 = 0

    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    /// How many statements are cached (not counting checked-out ones).
    var count: Int { entries.count }

    /// Takes the cached statement for `sql`, or returns `nil` (a miss) so the caller prepares one.
    ///
    /// - Complexity: O(1).
    func checkOut(_ sql: String) -> SQLiteStatement? {
        guard let entry = entries.removeValue(forKey: sql) else {
            misses += 1
            return nil
        }
        hits += 1
        return entry.statement
    }

    /// Resets `statement`, clears its bindings and keeps it for reuse, evicting the least recently
    /// used statement when over capacity.
    ///
    /// - Complexity: O(1), or O(*capacity*) when it evicts.
    func checkIn(_ statement: SQLiteStatement) {
        statement.reset()
        statement.clearBindings()
        guard capacity > 0, entries[statement.sql] == nil else { return }
        clock += 1
        entries[statement.sql] = Entry(statement: statement, lastUse: clock)
        if entries.count > capacity, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
            entries.removeValue(forKey: oldest.key)
        }
    }

    /// Drops (finalizes) every cached statement.
    func removeAll() {
        entries.removeAll()
    }
}
