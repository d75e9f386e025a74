import Logging
import Synchronization

/// A live fetch: keeps the results of a ``AnyFetchRequest`` current as the database changes and tells its
/// delegate exactly which sections and rows changed — in batches a table view can apply as they are.
///
/// ```swift
/// let controller = ResultsController(store: store, request: AnyFetchRequest(
///     entity: "Todo", sortDescriptors: [.ascending("category.name"), .ascending("title")],
///     sectionNameKeyPath: "category.name"))
/// controller.delegate = myDelegate
/// try await controller.performFetch()
/// for await update in controller.updates() { render(update.snapshot, update.changeset) }
/// ```
///
/// Threading: the controller is `Sendable`; its accessors (``snapshot``, ``fetchedObjects``, ``sections``…)
/// read the current results under a lock from any task — in a delegate callback, the results of the batch it
/// delivers (see ``snapshot``). Store changes, request changes and fetches are
/// processed one at a time, in commit order, on the controller's own task; delegate callbacks and stream
/// elements of one controller are therefore serialized and in commit order.
public final class ResultsController<Object: Sendable>: Sendable {
    /// The store the controller reads.
    public let store: any PersistentStore
    let materializer: Materializer<Object>
    let logger: Logger
    // The queue, then the state: a follower of shared results touches both for each batch it delivers.
    let queue = Mutex(ControllerCommandQueue())
    let state: Mutex<State>
    let router: ChangeRouter
    let routeID: Int
    /// The tasks the controller starts for its own work (see ``TaskCensus``).
    package let census = TaskCensus()

    init(store: any PersistentStore, request: AnyFetchRequest, materializer: Materializer<Object>, logger: Logger?) {
        self.store = store
        self.materializer = materializer
        self.logger = logger ?? store.logger
        self.state = Mutex(State(request: request))
        // The store's change router hands this controller the changes that can affect it; registered before
        // the first fetch, so no commit between the fetch and the registration is missed.
        self.router = LiveResultsRouting.router(of: store)
        self.routeID = router.reserveRoute()
        router.attach(self, to: routeID)
        router.metrics.controllers.increment()
    }

    deinit {
        let (keys, retry, sharing) = state.withLock { state in
            (state.plan?.memory != nil ? state.snapshot.keys : [], state.machine.audience.retry, state.sharing)
        }
        retry?.cancel()
        if let group = sharing.group {
            Self.leave(group, controller: ObjectIdentifier(self), isLeader: sharing.ledGroup != nil)
        }
        router.unregister(routeID, heldKeys: keys)
        let (subscribers, statusReaders) = state.withLock { ($0.subscribers, $0.machine.audience.statusReaders.values) }
        subscribers?.finishAll()
        for reader in statusReaders { reader.finish() }
        router.metrics.controllers.decrement()
    }

    /// The delegate that receives each batch, on the controller's own task. Held weakly, like
    /// NSFetchedResultsController's. ``setDelegate(_:isolation:)`` runs its callbacks on an actor instead.
    public var delegate: (any ResultsControllerDelegate<ResultsController<Object>>)? {
        get { state.withLock { $0.delegate } }
        set { setDelegate(newValue, isolation: nil) }
    }

    /// Sets the delegate and the actor its callbacks run on — the main actor, say, where the UI that shows
    /// the results runs — so that callbacks and the UI's own calls (``userMovedRow(from:to:)``) are
    /// serialized. The delegate starts from the current results.
    ///
    /// ```swift
    /// controller.setDelegate(tableAdapter, isolation: MainActor.shared)
    /// // In the adapter (a @MainActor class): nonisolated callbacks run on the main actor.
    /// nonisolated func controller(_ c: ResultsController<Row>, didApply update: ResultsBatch<Row>) {
    ///     MainActor.assumeIsolated { tableView.apply(update) }
    /// }
    /// ```
    ///
    /// The controller waits for each batch's callbacks before it applies the next change.
    public func setDelegate(
        _ delegate: (any ResultsControllerDelegate<ResultsController<Object>>)?, isolation actor: (any Actor)?
    ) {
        send(.delegateSet(delegate, actor: actor))
    }

    /// The current request.
    public var request: FetchRequest<Object> { FetchRequest(erased: state.withLock { $0.request }) }

    /// The current results.
    ///
    /// Read in a delegate callback (on the callback's task), the results of the batch being delivered
    /// (``ResultsBatch/snapshot``): what the delegate shows once it has applied the batch, with the rows its UI
    /// moved that are not written yet (``userMovedRow(from:to:)``). A table view that reads its data source
    /// while it applies the batch counts the rows the batch leads to. So do the accessors below.
    public var snapshot: ResultsSnapshot<Object> {
        if let delivered = DelegateDeliveryScope.batch(deliveredBy: self) {
            return ResultsBatch<Object>(erased: delivered).snapshot
        }
        return state.withLock { $0.snapshot }
    }

    /// Every fetched object, in order: a view into the current results, not a copy.
    ///
    /// - Complexity: O(1); reading one object is O(log n).
    public var fetchedObjects: ResultsObjects<Object> { snapshot.fetchedObjects }

    /// The sections, in order.
    public var sections: [ResultsSection<Object>] { snapshot.sections }

    /// The distinct section index titles, in section order.
    public var sectionIndexTitles: [String] { snapshot.sectionIndexTitles }

    /// The object at `path`, or `nil` when out of range.
    public func object(at path: RowPath) -> Object? { snapshot.object(at: path) }

    /// The path of the object whose primary key is `key`.
    public func rowPath(forKey key: Value) -> RowPath? { snapshot.rowPath(forKey: key) }

    /// The path of `object` (found by its primary key).
    public func rowPath(for object: Object) -> RowPath? {
        let key = state.withLock { $0.primaryKeyName }
        return materializer.key(object, key).flatMap { snapshot.rowPath(forKey: $0) }
    }

    /// Fetches the results. Call it once before reading; later commits keep them current.
    ///
    /// Like NSFetchedResultsController's `performFetch()`, it calls no delegate method. Calling it again
    /// refetches and emits the difference as a normal batch.
    ///
    /// - Throws: ``FetchKitError`` for an invalid request or a database error; the results stay as they were.
    ///   ``FetchKitError/Code/sectionOrder`` before fetching when the request's order can split a section (a
    ///   case-insensitive sort descriptor on its section key path, or another sort descriptor before that one's).
    ///   `CancellationError` when the calling task is cancelled before the fetch starts (it then does nothing;
    ///   a fetch that has started completes).
    public func performFetch() async throws {
        try await perform { .performFetch($0) }
    }

    /// Replaces the request and emits the batch from the old results to the new ones (not a silent reload).
    ///
    /// - Throws: ``FetchKitError`` for an invalid request (``FetchKitError/Code/sectionOrder`` when its order can
    ///   split a section, as for ``performFetch()``) or a database error; the request, the results
    ///   and the delegate's view stay exactly as they were. `CancellationError` when the calling task is
    ///   cancelled before the switch starts (it then does nothing).
    public func setRequest(_ request: FetchRequest<Object>) async throws {
        try await perform { .setRequest(request.erased, $0) }
    }

    /// Waits until the controller has applied every change the store published before this call.
    ///
    /// After `try await store.write { … }` returns, `await controller.sync()` guarantees the controller (and
    /// its delegate) have seen that write: read-your-writes for live results. A write returns at commit; its
    /// change reaches the controller on its own shortly after (on PostgreSQL, when the feed reads it), and
    /// `sync()` waits for it (``PersistentStore/waitForPublication()``). When the controller could not
    /// read the database, `sync()` waits until it has caught up (it retries on its own).
    public func sync() async {
        // Writes that returned before their change was published (a PostgreSQL store's): published first.
        await store.waitForPublication()
        await router.waitRouted(through: store.lastTransactionID)
        // A follower's batches come from its leader: wait for the leader first.
        await syncLeader()
        // Every change routed to this controller so far is queued before the barrier.
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            enqueue(.barrier(continuation))
        }
    }

    /// The results as an asynchronous sequence: the current snapshot first (with a `nil` changeset), then one
    /// element per batch.
    ///
    /// A reader more than `bufferingLimit` batches behind receives the waiting batches as one (see
    /// ``ResultsStream``); the sequence ends by throwing the error that stopped the controller.
    ///
    /// ```swift
    /// for try await update in controller.updates() { render(update.snapshot, update.changeset) }
    /// ```
    public func updates(bufferingLimit: Int = 64) -> ResultsStream<Object> {
        let buffer = UpdateBuffer<Object>(
            limit: bufferingLimit,
            reapply: { [weak self] results, moves, view in
                guard let self else { return MovedResults(snapshot: results) }
                return self.results(results, with: moves, request: self.state.withLock { $0.request }, view: view)
            },
            fail: { [weak self] error in
                self?.failDelivery(error, to: "an update sequence") ?? FetchKitError.inconsistency("\(error)")
            })
        let id = ReaderID.next()
        send(.updatesSubscribed(buffer, id: id))
        return ResultsStream(
            subscription: .init(
                buffer: buffer,
                unsubscribe: { [weak self] in
                    self?.send(.updatesEnded(id: id))
                },
                move: { [weak self, weak buffer] target, alreadyShown in
                    guard let self, let buffer else { throw FetchKitError.closed }
                    return try self.viewMove(target, in: buffer, alreadyShown: alreadyShown)
                }))
    }
}

extension ResultsController where Object == Row {
    /// A controller of untyped rows.
    public convenience init(store: any PersistentStore, request: FetchRequest<Row>, logger: Logger? = nil) {
        self.init(store: store, request: request.erased, materializer: .rows, logger: logger)
    }
}

extension ResultsController where Object: Record {
    /// A controller of typed records: `ResultsController(store: store, request: FetchRequest<Todo>(…))` is a
    /// `ResultsController<Todo>`.
    public convenience init(store: any PersistentStore, request: FetchRequest<Object>, logger: Logger? = nil) {
        self.init(store: store, request: request.erased, materializer: .records(Object.self), logger: logger)
    }
}
