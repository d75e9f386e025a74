/// Chooses between applying a change incrementally and refetching, by what each has cost on this store.
///
/// A controller handed k changed keys over n results can move the k rows in its tree (about k · log n, plus a
/// query when it re-reads the keys itself) or run its query again and diff (one round trip, plus n rows read
/// and compared). Which is cheaper depends on the machine, the backend and the rows, so it is measured, not
/// fixed: every incremental application of at least ``floor`` keys reports its time per changed key, every
/// refetch its fixed time and its time per row read, each smoothed over the last few dozen events. A change is
/// applied incrementally unless the model predicts that refetching is cheaper by ``margin``; a change of fewer
/// than ``floor`` keys always is (its cost is a batch's fixed cost, which a refetch pays too, and one slow
/// application on a busy machine must not turn every one-row change into a query).
///
/// A value type: events in, a decision out; the router holds one per store, shared by its controllers.
struct ApplyCostModel: Sendable, Equatable {
    /// Seconds per changed key of an incremental application.
    private(set) var perKey: Double
    /// Seconds a refetch costs whatever its size (a round trip, planning, a changeset).
    private(set) var refetchFixed: Double
    /// Seconds per result row of a refetch.
    private(set) var refetchPerRow: Double
    /// How much cheaper a refetch must be predicted to be before it is chosen: the incremental path keeps the
    /// controller's unchanged rows (their objects, their positions) and its estimate is the better measured.
    let margin: Double
    /// The weight of each new measurement in the smoothed figures.
    let weight: Double

    /// Starting figures from this project's benchmarks (2-core VM, SQLite and PostgreSQL), replaced by what
    /// this process measures within its first few dozen changes.
    init(perKey: Double = 4e-6, refetchFixed: Double = 150e-6, refetchPerRow: Double = 1e-6, margin: Double = 2) {
        self.perKey = perKey
        self.refetchFixed = refetchFixed
        self.refetchPerRow = refetchPerRow
        self.margin = margin
        weight = 1.0 / 32
    }

    /// The fewest changed keys for which refetching is considered, and from which an application's time per key
    /// is measured.
    static let floor = 100

    /// Whether a controller of `rows` results handed `keys` changed keys should refetch rather than apply them.
    func prefersRefetch(keys: Int, rows: Int) -> Bool {
        guard keys >= Self.floor else { return false }
        let incremental = Double(keys) * perKey
        let refetch = refetchFixed + Double(rows + keys) * refetchPerRow
        return incremental > refetch * margin
    }

    /// An incremental application of `keys` changed keys took `duration`.
    mutating func incrementalApplied(keys: Int, duration: Duration) {
        guard keys >= Self.floor else { return }
        perKey += (duration.seconds / Double(keys) - perKey) * weight
    }

    /// A refetch of `rows` result rows took `duration`: the part a row explains goes to the per-row figure, the
    /// rest to the fixed one.
    mutating func refetched(rows: Int, duration: Duration) {
        let seconds = duration.seconds
        if rows >= 100 {
            let perRow = max(0, seconds - refetchFixed) / Double(rows)
            refetchPerRow += (perRow - refetchPerRow) * weight
        } else {
            let fixed = max(0, seconds - Double(rows) * refetchPerRow)
            refetchFixed += (fixed - refetchFixed) * weight
        }
    }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }
}
