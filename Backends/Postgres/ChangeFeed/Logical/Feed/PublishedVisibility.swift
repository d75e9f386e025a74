/// Which published transactions other sessions may not see yet: a value-type record the logical feed adds to
/// as it publishes and the store's reads consult before they run.
///
/// The log hands a transaction on once its commit record is flushed, a moment before the server makes it
/// visible to other sessions (see ``ServerSnapshot``). A controller that applies the rows the log carried does
/// not read, so the feed publishes at once, without asking the server anything. A read that follows — a
/// controller's first fetch, a refetch, a re-read of rows the log could not carry — must see what was published
/// before it: it reads a snapshot on its own connection first, but only while a published transaction is
/// unconfirmed, and only until one snapshot sees them all. The writes' hot path asks the server nothing.
struct PublishedVisibility {
    /// What a read waits for: these transactions, until a snapshot sees them or the deadline passes.
    struct Check: Equatable {
        /// The 32-bit transaction IDs the log carried.
        var transactionIDs: [UInt32]
        /// The sequence number of the last of them: confirming the check confirms everything up to it.
        var through: Int
        /// When the read stops waiting: a second after the last was published (a server that never shows a
        /// committed transaction is not one a read can wait on forever).
        var deadline: ContinuousClock.Instant
    }

    /// How long a published transaction may stay unconfirmed before reads stop waiting for it.
    static let patience: Duration = .seconds(1)

    private var entries: [(sequence: Int, transactionID: UInt32, publishedAt: ContinuousClock.Instant)] = []
    /// The index of the first entry still unconfirmed (the ones before it are dropped in batches).
    private var head = 0
    private var sequence = 0

    /// The number of published transactions not yet confirmed (nor expired).
    var unconfirmedCount: Int { entries.count - head }

    /// Records that the feed published `transactionIDs` at `now`, and forgets those published longer ago
    /// than ``patience``: no read waits for them any more.
    mutating func publish(_ transactionIDs: [UInt32], at now: ContinuousClock.Instant) {
        for transactionID in transactionIDs {
            sequence += 1
            entries.append((sequence, transactionID, now))
        }
        while head < entries.count, now - entries[head].publishedAt > Self.patience { head += 1 }
        compact()
    }

    /// What a read starting at `now` must wait for; `nil` when nothing published is unconfirmed.
    func check(at now: ContinuousClock.Instant) -> Check? {
        var transactionIDs: [UInt32] = []
        var last: (sequence: Int, publishedAt: ContinuousClock.Instant)?
        for entry in entries[head...] where now - entry.publishedAt <= Self.patience {
            transactionIDs.append(entry.transactionID)
            last = (entry.sequence, entry.publishedAt)
        }
        guard let last else { return nil }
        return Check(transactionIDs: transactionIDs, through: last.sequence, deadline: last.publishedAt + Self.patience)
    }

    /// Records that a snapshot saw every transaction of a check up to sequence number `through`: visibility
    /// only grows, so no later read waits for them.
    mutating func confirm(through: Int) {
        while head < entries.count, entries[head].sequence <= through { head += 1 }
        compact()
    }

    /// Drops the confirmed and expired entries once they are half the array.
    private mutating func compact() {
        guard head > 0, head * 2 >= entries.count else { return }
        entries.removeFirst(head)
        head = 0
    }
}
