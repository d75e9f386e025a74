/// Which transactions a new snapshot of the server sees, as `txid_current_snapshot()` prints it
/// (`xmin:xmax:running,…`, 64-bit IDs with their epoch).
///
/// The log hands a transaction on once its commit record is flushed, a moment before the server makes it visible
/// to other sessions: a fetch in between would not see it, and a controller that fetched then would miss it for
/// good. The logical feed therefore publishes a transaction only once a snapshot sees it.
struct ServerSnapshot: Equatable {
    /// Every transaction below it has ended.
    var xmin: UInt64
    /// No transaction from it on has ended.
    var xmax: UInt64
    /// The transactions between the two still running.
    var running: Set<UInt64>

    /// Reads `txid_current_snapshot()`'s text; `nil` when it is not one.
    init?(_ text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, let xmin = UInt64(parts[0]), let xmax = UInt64(parts[1]) else { return nil }
        var running: Set<UInt64> = []
        for item in parts[2].split(separator: ",") {
            guard let xid = UInt64(item) else { return nil }
            running.insert(xid)
        }
        self.xmin = xmin
        self.xmax = xmax
        self.running = running
    }

    /// Whether the snapshot sees the committed transaction whose 32-bit ID the log carries: its full ID is the
    /// one with that low half just below ``xmax``.
    func sees(_ transactionID: UInt32) -> Bool {
        var full = xmax & ~0xFFFF_FFFF | UInt64(transactionID)
        if full >= xmax {
            guard full >= 1 << 32 else { return false }
            full -= 1 << 32
        }
        return !running.contains(full)
    }
}
