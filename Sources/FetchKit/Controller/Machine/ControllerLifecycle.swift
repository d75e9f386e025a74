/// Where a results controller is in its life, as one value: no two flags can disagree about it.
///
/// ``ControllerMachine`` derives the public ``ResultsStatus`` from it, the feed's delivery and the lag:
/// ``following`` reads ``ResultsStatus/live``, ``ResultsStatus/catchingUp(lag:)``, or
/// ``ResultsStatus/resyncing(_:)`` while the store's feed cannot deliver.
enum ControllerLifecycle: Sendable, Equatable {
    /// Never fetched, and no fetch runs.
    case idle
    /// ``ResultsController/performFetch()`` or ``ResultsController/setRequest(_:)`` fetches; a fetch that throws
    /// returns the controller to `returningTo`, unchanged.
    indirect case fetching(returningTo: ControllerLifecycle)
    /// The controller follows the store: it applies every change the store publishes.
    case following
    /// A read failed transiently: changes are not applied, a retry is scheduled and `sync()` waits, until a
    /// refetch works.
    case stale(StaleRead)
    /// Stopped for good (its store closed, a read failed permanently, a batch could not be built): the
    /// results stay as they were; nothing more is applied.
    case failed(FetchKitError)

    /// A transiently failed read and its retries.
    struct StaleRead: Sendable, Equatable {
        /// The last failure.
        var error: FetchKitError
        /// The delay of the retry after the next failure (doubling up to
        /// ``ControllerMachine/maximumRetryDelay``).
        var nextDelay: Duration
        /// When the scheduled retry is due; `nil` while its refetch runs.
        var retryAt: ContinuousClock.Instant?
    }

    /// The stale read this lifecycle is in, also under a fetch that started from it.
    var staleRead: StaleRead? {
        switch self {
        case .stale(let read): read
        case .fetching(let before): before.staleRead
        case .idle, .following, .failed: nil
        }
    }

    /// Changes the stale read in place (also under a fetch); does nothing when there is none.
    mutating func updateStaleRead(_ body: (inout StaleRead) -> Void) {
        switch self {
        case .stale(var read):
            body(&read)
            self = .stale(read)
        case .fetching(var before):
            before.updateStaleRead(body)
            self = .fetching(returningTo: before)
        case .idle, .following, .failed:
            break
        }
    }

    /// The error that stopped the controller, once it stopped.
    var failure: FetchKitError? {
        if case .failed(let error) = self { error } else { nil }
    }
}
