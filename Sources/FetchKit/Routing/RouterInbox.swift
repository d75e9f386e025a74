import Synchronization

/// The thin loop around a router's ``ChangeInbox``: the feed task puts changes in, the routing task takes
/// them out (waiting while none is there), and the lag monitor asks how old the oldest unrouted one is.
///
/// Its own object, apart from the router, so that the tasks hold it strongly and the router weakly: the
/// router goes away with its last controller, which ends both tasks.
final class RouterInbox: Sendable {
    private struct Guarded {
        var machine: ChangeInbox
        /// The routing task, while it waits for a change.
        var waiter: CheckedContinuation<Void, Never>?
        /// When the change being routed was published (folded: its oldest), until it has been handed out.
        var routing: ContinuousClock.Instant?
        /// Whether the lag monitor runs.
        var isMonitored = false
        /// Since when the store's feed has not received what the database committed (``FeedDelivery/lagging(since:)``).
        var feedBehindSince: ContinuousClock.Instant?
    }

    private let guarded: Mutex<Guarded>
    /// Starts the lag monitor (set by the router once it exists).
    private let monitor = Mutex<(@Sendable () -> Void)?>(nil)
    /// Tells the router at once that the feed cannot deliver (set by the router once it exists).
    private let interruption = Mutex<Interruption>(Interruption())

    /// What tells the router that the feed cannot deliver, and an interruption received before it was set.
    private struct Interruption {
        var handle: (@Sendable (FetchKitError, UInt64) -> Void)?
        var missed: (error: FetchKitError, id: UInt64)?
    }

    init(limits: ChangeInbox.Limits = .init()) {
        guarded = Mutex(Guarded(machine: ChangeInbox(limits: limits)))
    }

    /// A change the store published.
    ///
    /// - Returns: `true` when the lag monitor is not running and should start (it is then marked running).
    func receive(_ change: StoreChange) -> Bool {
        let (waiter, startMonitor) = guarded.withLock { guarded in
            switch change.delivery {
            case .lagging(let since)?: guarded.feedBehindSince = since
            case .streaming?, .interrupted?: guarded.feedBehindSince = nil
            case nil: break
            }
            let wake = guarded.machine.receive(change)
            defer { if wake { guarded.waiter = nil } }
            let start = !guarded.isMonitored
            guarded.isMonitored = true
            return (wake ? guarded.waiter : nil, start)
        }
        waiter?.resume()
        // Not behind the changes waiting to be routed: every controller leaves `.live` now.
        if case .interrupted(let error) = change.delivery {
            let handle = interruption.withLock { interruption in
                if interruption.handle == nil { interruption.missed = (error, change.transactionID) }
                return interruption.handle
            }
            handle?(error, change.transactionID)
        } else if change.delivery != nil {
            interruption.withLock { $0.missed = nil }
        }
        return startMonitor
    }

    /// Sets what tells the router that the feed cannot deliver.
    ///
    /// An interruption received before (the store's feed was already interrupted when the router subscribed) is
    /// told at once.
    func onInterruption(_ handle: @escaping @Sendable (FetchKitError, UInt64) -> Void) {
        let missed = interruption.withLock { interruption in
            interruption.handle = handle
            defer { interruption.missed = nil }
            return interruption.missed
        }
        if let missed { handle(missed.error, missed.id) }
    }

    /// Sets what starts the lag monitor.
    func onBacklog(_ start: @escaping @Sendable () -> Void) {
        monitor.withLock { $0 = start }
        // A change that arrived before the router existed asked for the monitor in vain.
        if guarded.withLock({ $0.isMonitored }) { start() }
    }

    /// ``receive(_:)`` said the monitor should start: starts it.
    func backlogStarted() {
        monitor.withLock { $0 }?()
    }

    /// The feed ended.
    func finish() {
        let waiter = guarded.withLock { guarded in
            let wake = guarded.machine.finish()
            defer { if wake { guarded.waiter = nil } }
            return wake ? guarded.waiter : nil
        }
        waiter?.resume()
    }

    /// A `sync()` caller waits for what is waiting: fold it into one change.
    func expedite() {
        guarded.withLock { $0.machine.expedite() }
    }

    /// The next change to route and how many published changes it covers, waiting for one; `nil` once the feed
    /// ended and every change was taken.
    func next() async -> (change: StoreChange, covers: Int)? {
        while true {
            let take = guarded.withLock { guarded in
                let take = guarded.machine.take(at: .now)
                if case .route(let change, _) = take { guarded.routing = change.publishedAt }
                return take
            }
            switch take {
            case .route(let change, let covers): return (change, covers)
            case .finished: return nil
            case .wait:
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let ready = guarded.withLock { guarded -> Bool in
                        // A change (or the end) arrived between the take and now.
                        guard guarded.machine.isAwaited else { return true }
                        guarded.waiter = continuation
                        return false
                    }
                    if ready { continuation.resume() }
                }
            }
        }
    }

    /// The change taken last has been handed to every route it can affect.
    func routed() {
        guarded.withLock { $0.routing = nil }
    }

    /// When the oldest change not yet handed out committed: the one being routed, else the oldest waiting — or
    /// since when the feed has not received what the database committed, when that is earlier.
    var oldestUnrouted: ContinuousClock.Instant? {
        guarded.withLock { guarded in
            [guarded.routing ?? guarded.machine.oldestPublished, guarded.feedBehindSince].compactMap { $0 }.min()
        }
    }

    /// Stops the lag monitor when nothing is unrouted and `controllersIdle`.
    ///
    /// - Returns: `true` when the monitor stopped.
    func stopMonitor(controllersIdle: Bool) -> Bool {
        guarded.withLock { guarded in
            guard controllersIdle, guarded.routing == nil, guarded.machine.count == 0, guarded.feedBehindSince == nil
            else { return false }
            guarded.isMonitored = false
            return true
        }
    }
}
