import Logging
import Synchronization

/// An entity and a route: the key of a store's ``RouteMetrics``.
struct RouteMetricsKey: Hashable {
    let entity: String
    let kind: ControllerRouting
}

/// What the router hands changes to: a results controller.
protocol RouteTarget: AnyObject, Sendable {
    /// Takes one routed change; called in commit order, never concurrently for one target.
    func receive(_ change: RoutedChange)
    /// Measures how far behind the store the controller is at `now`, counting changes not yet routed since
    /// `unroutedSince`, and reports it in its status.
    ///
    /// - Returns: the lag, and whether the controller reports itself behind (``ResultsStatus/catchingUp(lag:)``).
    func observeLag(unroutedSince: ContinuousClock.Instant?, at now: ContinuousClock.Instant) -> (
        lag: Duration, isBehind: Bool
    )
    /// The store's feed ended because the store closed: nothing will reach the controller again, so it stops
    /// (after what was handed to it before).
    func feedEnded()
    /// The store's feed cannot deliver (``FeedDelivery/interrupted(_:)``): the controller leaves `.live` now.
    /// Called on the feed's publishing thread: it must return promptly.
    func feedInterrupted(_ error: FetchKitError, id: UInt64)
    /// The store's feed delivers again: the controller returns to `.live` once it has applied what it was handed
    /// before.
    func feedResumed(id: UInt64)
}

/// The one subscriber to a store's change feed: hands each committed change, in one hop, to the live
/// controllers it can affect, and to no other.
///
/// A server holds one controller per connected client, so the cost of a write must grow with the
/// controllers it affects, not with how many exist. For each change the router
/// 1. re-reads the changed rows of each entity table once (`WHERE pk IN (…)`, no controller's predicate), with
///    the related columns the controllers' to-one key paths need, and follows changed related rows to the
///    entity rows pointing at them;
/// 2. finds the candidate controllers without scanning them all: those indexed by an equality conjunct
///    whose value a re-read row has (`grp == 7`), those that hold one of the changed keys, those without an
///    indexable conjunct whose predicate a re-read row matches in memory, those whose predicate cannot be
///    evaluated in memory, and those still applying an earlier change;
/// 3. hands each candidate the change with the re-read rows; a controller that cannot be affected does no
///    work and is not woken.
///
/// Each store has its own, made with its first controller and shared by all of them: the store's feed keeps it
/// in its routing, weakly (the router holds the store). It goes with its last controller, and leaves the feed
/// once the feed ends (``PersistentStore/close()``).
final class ChangeRouter: Sendable {
    let store: any PersistentStore
    let state: Mutex<State>
    let logger: Logger
    /// The store's counters and gauges, shared by its controllers.
    let metrics: FetchKitMetrics
    /// The metrics of each entity and route of the store's controllers (``RouteMetrics``), made when first needed.
    private let routes = Mutex([RouteMetricsKey: RouteMetrics]())
    /// What applying a change incrementally and refetching have cost on this store, shared by its controllers.
    let costs = Mutex(ApplyCostModel())
    /// The task that routes what the inbox holds.
    private let task = Mutex<Task<Void, Never>?>(nil)
    /// The store's feed calling the inbox.
    private let subscription: ChangeFeed.Subscription
    /// The committed changes waiting to be routed: bounded, a backlog folds (see ``ChangeInbox``).
    let inbox: RouterInbox
    /// Shared results by object type and request (``SharedResults``).
    let groups = Mutex(SharedGroups())
    /// What every span of the store's controllers says of the store (``FetchKitTracing``): `db.system.name` (the
    /// dialect's name in lower case: `sqlite`, `postgresql`) and `fetchkit.store`, its metrics label.
    let traceAttributes: [(String, TraceAttribute)]

    /// A router for `store`'s controllers; only the store's ``LiveResultsRouting`` makes one.
    init(store: any PersistentStore, logger: Logger) {
        self.store = store
        self.logger = logger
        metrics = FetchKitMetrics(dimensions: store.metricDimensions)
        traceAttributes = [
            ("db.system.name", .string(store.dialect.name.lowercased())),
            ("fetchkit.store", .string(store.metricDimensions.first { $0.0 == "store" }?.1 ?? "\(type(of: store))"))
        ]
        let inbox = RouterInbox()
        self.inbox = inbox
        // Subscribe first, then read the last ID: nothing published in between is missed. The feed's publishing
        // thread puts each change in the bounded inbox itself, folding a backlog there.
        let feed = store.changeFeed
        subscription = feed.attach(
            receive: { change in if inbox.receive(change) { inbox.backlogStarted() } },
            finish: { inbox.finish() })
        state = Mutex(State(routedThrough: feed.lastPublishedID))
        let task = Task { [weak self] in
            while let (change, covers) = await inbox.next() {
                guard let self else { return }
                if covers > 1 { self.metrics.foldedChanges.increment(by: Int64(covers - 1)) }
                await self.route(change)
                inbox.routed()
            }
            self?.endFeed()
        }
        self.task.withLock { $0 = task }
        inbox.onBacklog { [weak self] in self?.startLagMonitor() }
        inbox.onInterruption { [weak self] error, id in self?.deliveryInterrupted(error, id: id) }
    }

    deinit {
        subscription.cancel()
        task.withLock { $0?.cancel() }
        // Ends the routing task once it has taken what waits.
        inbox.finish()
        finishFeed()
    }

    /// The metrics of the store's controllers of `entity` routed as `kind`.
    func routeMetrics(entity: String, kind: ControllerRouting) -> RouteMetrics {
        routes.withLock { routes in
            let key = RouteMetricsKey(entity: entity, kind: kind)
            if let metrics = routes[key] { return metrics }
            let metrics = RouteMetrics(
                kind: kind, entity: entity, store: self.metrics.dimensions, factory: self.metrics.maker)
            routes[key] = metrics
            return metrics
        }
    }

    /// Whether the store's feed ended (the store closed): nothing will be routed again.
    var feedHasEnded: Bool { state.withLock { $0.feedEnded } }

    /// The last transaction every candidate has been handed.
    var routedThrough: UInt64 { state.withLock { $0.routedThrough } }

    /// The last routed transaction when the route has nothing pending or refetching (it has applied all
    /// it was handed), else `nil`.
    func routedThroughIfIdle(_ id: Int) -> UInt64? {
        state.withLock { state in
            guard let entry = state.entries[id], entry.pending == 0, entry.refreshing == 0 else { return nil }
            return state.routedThrough == .max ? nil : state.routedThrough
        }
    }

    /// Waits until the router has handed out every change up to `transactionID`; what waits to be routed then
    /// folds into one change, so the wait does not grow with the backlog.
    func waitRouted(through transactionID: UInt64) async {
        // A feed that ended is routed through once every controller was told (``endFeed()``).
        let transactionID = store.changeFeed.isFinished ? .max : transactionID
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if state.routedThrough >= transactionID { return true }
                state.waiters.append((transactionID, continuation))
                return false
            }
            if ready {
                continuation.resume()
            } else {
                // Route what waits as one change rather than one by one.
                inbox.expedite()
            }
        }
    }

    /// The feed ended (the store closed): the router unsubscribes and leaves the store, whose next controller
    /// gets a new one; the controllers that still hold it wait for nothing more.
    private func endFeed() {
        subscription.cancel()
        // Every controller still attached stops, rather than waiting for changes that will never come — before
        // the `sync()` callers waiting for the end go on: their controllers stopped first.
        let targets = state.withLock { state in state.entries.values.compactMap(\.target) }
        if !targets.isEmpty {
            logger.info(
                "the store closed: stopping its live controllers", metadata: ["controllers": "\(targets.count)"])
        }
        for target in targets { target.feedEnded() }
        finishFeed()
        store.changeFeed.routing.release(self)
    }

    /// Nothing more will be routed, so no one waits for it.
    private func finishFeed() {
        let waiters = state.withLock { state in
            state.routedThrough = .max
            state.feedEnded = true
            defer { state.waiters.removeAll() }
            return state.waiters.map(\.continuation)
        }
        for waiter in waiters { waiter.resume() }
    }

    // MARK: - Routes

    /// A new route, not yet reading anything; ``attach(_:to:)`` gives it its target.
    func reserveRoute() -> Int {
        state.withLock { state in
            defer { state.nextID += 1 }
            state.entries[state.nextID] = Entry()
            return state.nextID
        }
    }

    /// Sets the controller a route hands changes to.
    func attach(_ target: any RouteTarget, to id: Int) {
        let interruption = state.withLock { state in
            state.entries[id]?.target = target
            return state.interruption
        }
        // A controller made while the feed cannot deliver starts out of `.live` (unless a resumption newer than this
        // interruption reached it first).
        if let interruption { target.feedInterrupted(interruption.error, id: interruption.id) }
    }

    /// Removes a route and the keys it held.
    ///
    /// - Complexity: O(k) for the k keys it held.
    func unregister(_ id: Int, heldKeys: [Value]) {
        state.withLock { state in
            guard let entry = state.entries.removeValue(forKey: id) else { return }
            if let plan = entry.plan {
                state.uninstall(plan, id: id)
                state.removeHolder(id, keys: heldKeys, table: plan.entityTable, plan: plan)
            }
            state.busy.remove(id)
            state.lagging.remove(id)
        }
    }

    /// Removes a route's plan and the keys it held: it follows another controller's shared results.
    func dropPlan(_ id: Int, heldKeys: [Value]) {
        state.withLock { state in
            guard var entry = state.entries[id], let plan = entry.plan else { return }
            state.uninstall(plan, id: id)
            state.removeHolder(id, keys: heldKeys, table: plan.entityTable, plan: plan)
            entry.plan = nil
            state.entries[id] = entry
        }
    }

    /// Starts a refetch: until ``endRefresh(_:replacing:)`` the route receives every change.
    ///
    /// - Returns: the last transaction routed before the fetch starts (the fetch sees it and all before it).
    func beginRefresh(_ id: Int) -> UInt64 {
        state.withLock { state in
            state.entries[id]?.refreshing += 1
            state.crossRefetchBoundary(id)
            state.busy.insert(id)
            return state.routedThrough
        }
    }

    /// Ends a refetch; when it succeeded, `replacement` installs the new plan and held keys.
    ///
    /// - Returns: the last transaction routed before the refetch ended: changes up to it were routed while
    ///   the fetch ran, so their re-read rows may be older than the fetch.
    /// - Complexity: O(k) for the keys held before and after, when `replacement` is given.
    @discardableResult
    func endRefresh(_ id: Int, replacing replacement: PlanReplacement?) -> UInt64 {
        state.withLock { state in
            guard var entry = state.entries[id] else { return state.routedThrough }
            if let replacement, replacement.keepsPlan, let plan = entry.plan {
                state.removeHolder(id, keys: replacement.oldKeys, table: plan.entityTable, plan: plan)
                state.addHolder(id, keys: replacement.newKeys, table: plan.entityTable, plan: plan)
            } else if let replacement {
                if let old = entry.plan {
                    state.uninstall(old, id: id)
                    state.removeHolder(id, keys: replacement.oldKeys, table: old.entityTable, plan: old)
                }
                entry.plan = replacement.plan
                // Changes handed under the old plan (or none) named keys it did not count: until the route is
                // idle it receives every change.
                if entry.pending > 0 { entry.pendingKeys = nil }
                state.install(replacement.plan, id: id)
                state.addHolder(
                    id, keys: replacement.newKeys, table: replacement.plan.entityTable, plan: replacement.plan)
            }
            entry.refreshing -= 1
            state.entries[id] = entry
            state.crossRefetchBoundary(id)
            state.updateBusy(id)
            return state.routedThrough
        }
    }

    /// A controller finished applying `count` routed changes: its held keys changed by `entered` and `left`.
    func finish(_ id: Int, entered: [Value], left: [Value], count: Int = 1) {
        state.withLock { state in
            guard var entry = state.entries[id] else { return }
            entry.pending -= count
            state.entries[id] = entry
            if let plan = entry.plan {
                state.removeHolder(id, keys: left, table: plan.entityTable, plan: plan)
                state.addHolder(id, keys: entered, table: plan.entityTable, plan: plan)
            }
            state.updateBusy(id)
        }
    }

    /// A new plan and the keys held under the old and the new one — or, when `keepsPlan` (the same request
    /// refetched), the plan stays and `oldKeys` / `newKeys` are only the keys that left and entered.
    struct PlanReplacement {
        var plan: RoutePlan
        var oldKeys: [Value]
        var newKeys: [Value]
        var keepsPlan = false
    }
}
