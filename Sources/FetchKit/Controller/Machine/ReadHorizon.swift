/// Which routed changes a controller's results already hold, and which of the router's re-reads it can trust:
/// decided by the machine, from the fetches that installed results and the moves the controller wrote.
struct ReadHorizon: Sendable, Equatable {
    /// Routed changes up to this transaction are already in the results (the last fetch saw them).
    var fetchedThrough: UInt64 = 0
    /// Routed changes up to this transaction were re-read while the last fetch ran, possibly before it, or
    /// before the controller's last move was written: the controller re-reads their rows itself.
    var ownReadsThrough: UInt64 = 0

    /// A fetch installed its results: it saw every change through `fetchStart`; the router's re-reads of the
    /// changes routed through `routedThrough` may predate it.
    mutating func fetched(through fetchStart: UInt64, routedThrough: UInt64) {
        fetchedThrough = fetchStart
        ownReadsThrough = max(ownReadsThrough, routedThrough)
    }

    /// A move was written after the changes through `transactionID`: their re-reads may predate it.
    mutating func moveWritten(through transactionID: UInt64) {
        ownReadsThrough = max(ownReadsThrough, transactionID)
    }

    /// Whether `change` may change the results (a resync always may; a change the last fetch saw is already in).
    func admits(_ change: StoreChange) -> Bool {
        change.isResync || change.transactionID > fetchedThrough
    }

    /// Whether rows the router re-read, the earliest for the change through `earliestRead`, are no older than
    /// the results.
    func trustsReads(routedThrough earliestRead: UInt64) -> Bool {
        earliestRead > ownReadsThrough
    }
}
