/// Whether a results controller is following the database, and if not, why.
///
/// ```swift
/// for await status in controller.statusUpdates() {
///     switch status {
///     case .live: hideBanner()
///     case .catchingUp(let lag): showBanner("updating… \(lag) behind")
///     case .resyncing(let error): showBanner("reconnecting: \(error)")
///     case .failed(let error): showError(error)            // stopped: call performFetch() to start again
///     case .idle, .fetching: break
///     }
/// }
/// ```
///
/// A controller is never silently stale: while it cannot follow the database it says so here, through its
/// delegate's ``ResultsControllerDelegate/controller(_:didFailWith:)`` and by ending its
/// ``ResultsController/updates()`` sequences with the error.
public enum ResultsStatus: Sendable, Hashable, CustomStringConvertible {
    /// Not fetched yet.
    case idle
    /// The first fetch, or a request change, is running.
    case fetching
    /// The results are current: every committed change reaches them.
    case live
    /// The results follow the database but are behind it by more than a second: `lag` is the time since the
    /// oldest committed change they do not show yet was published (in steps of 100 ms).
    ///
    /// Writers outpacing the controller (a sustained load, a slow delegate, thousands of controllers on a
    /// small machine) do not queue without bound: the backlog folds into one catch-up per controller, and the
    /// status says the controller is behind until its lag is back under half a second, then ``live``. The
    /// results stay consistent meanwhile (every batch passes the batch contract), and
    /// ``ResultsController/sync()`` still returns once the controller covers the writes made before the call.
    case catchingUp(lag: Duration)
    /// A transient failure (the connection was lost, the database was busy) stopped the controller from
    /// reading a change: it keeps its last results, retries with backoff and, once a read succeeds, refetches
    /// and emits one batch to the current results. ``ResultsController/sync()`` waits meanwhile.
    case resyncing(FetchKitError)
    /// A permanent failure stopped the controller: the schema no longer matches, a table was dropped, the
    /// section order broke, or a row cannot be decoded. It keeps its last results and applies no further
    /// change; ``ResultsController/performFetch()`` or ``ResultsController/setRequest(_:)`` starts it again.
    case failed(FetchKitError)

    /// The error behind a ``resyncing(_:)`` or ``failed(_:)`` status.
    public var error: FetchKitError? {
        switch self {
        case .resyncing(let error), .failed(let error): return error
        case .idle, .fetching, .live, .catchingUp: return nil
        }
    }

    public var description: String {
        switch self {
        case .idle: return "idle"
        case .fetching: return "fetching"
        case .live: return "live"
        case .catchingUp(let lag): return "catching up (\(lag) behind)"
        case .resyncing(let error): return "resyncing after: \(error)"
        case .failed(let error): return "failed: \(error)"
        }
    }
}
