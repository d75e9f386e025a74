/// The commands waiting to run, and whether a task is running them.
///
/// A controller slower than the commits (a slow delegate, thousands of controllers on a busy store) never
/// queues without bound: once ``backlogLimit`` store changes wait, or a routed change arrives while another
/// waits (the controller is behind: ``foldAge``), they fold into one routed change
/// (``RoutedChange/absorb(_:keyLimit:)``: every key, the latest re-read rows — applied incrementally, one batch)
/// that later changes join while it waits,
/// so a controller behind holds one routed change waiting, not one per transaction; a resync arriving while
/// others wait collapses them into one ``ControllerCommand/catchUp(count:through:since:)`` (one refetch, one
/// batch from what the delegate last saw to the current results), and later changes join it while it waits;
/// once as many shared batches wait, a new one replaces the newest waiting one (a follower diffs from what it
/// shows to the batch's results).
struct ControllerCommandQueue: ~Copyable {
    /// How many store changes, or shared batches, may wait before they collapse.
    static let backlogLimit = 64
    /// How long a routed change may wait before the changes arriving after it fold into it: none. A controller
    /// that keeps up (nothing waits when a change arrives) gets one batch per transaction; one that is behind —
    /// still applying, or waiting for a core — gets one batch per turn with everything that arrived meanwhile,
    /// so a backlog never feeds more work to the controllers already behind (its work and its queue do not grow
    /// with the rate of the writers).
    static let foldAge = Duration.zero

    var pending: [ControllerCommand] = []
    var head = 0
    /// Routed changes and shared batches waiting (a collapsed catch-up counts once).
    var backlog = 0 {
        didSet { largestBacklog = max(largestBacklog, backlog) }
    }
    /// The most routed changes and shared batches that ever waited at once.
    var largestBacklog = 0
    /// Waiting routed changes and shared batches, by kind.
    var routedWaiting = 0
    var adoptsWaiting = 0
    /// Where the waiting catch-up is, while it waits.
    var catchUpIndex: Int?
    /// Where the newest waiting shared batch is, while it waits.
    var adoptIndex: Int?
    /// Where the waiting fold of routed changes is, while it waits.
    var foldIndex: Int?
    /// When the store change running now (a routed change or a catch-up: its oldest) was published.
    var running: ContinuousClock.Instant?
    /// Whether a turn is draining the queue (after ``running``, in the byte its optional leaves free).
    var isDraining = false

    /// When the oldest routed change waiting was published.
    ///
    /// - Complexity: O(w) for the w commands waiting before it.
    private var oldestRoutedWaiting: ContinuousClock.Instant? {
        guard routedWaiting > 0 else { return nil }
        for index in head..<pending.count {
            if case .routed(let routed) = pending[index] { return routed.change.publishedAt }
        }
        return nil
    }

    /// When the oldest store change not yet applied — running or waiting — was published (for the delivery lag).
    ///
    /// - Complexity: O(w) for the w commands waiting before the first store change.
    var oldestUnapplied: ContinuousClock.Instant? {
        if let running { return running }
        for index in head..<pending.count {
            if let published = pending[index].published { return published }
        }
        return nil
    }

    /// How many keys of one table a fold of routed changes names before it becomes a whole-table change (the
    /// router's own fold bound, ``ChangeInbox/Limits/keysPerTable``).
    static let foldKeyLimit = 100_000

    /// Folds every waiting routed change, and `routed`, into one routed change where the first of them waits.
    ///
    /// - Complexity: O(c + k) for the c commands waiting and the k keys they name.
    private mutating func foldWaiting(_ routed: RoutedChange) -> (backlog: Int, collapsed: Bool) {
        var fold: RoutedChange?
        var first: Int?
        var kept: [ControllerCommand] = []
        kept.reserveCapacity(pending.count - head)
        for index in head..<pending.count {
            if case .routed(let waiting) = pending[index] {
                if fold == nil {
                    fold = waiting
                    first = kept.count
                    kept.append(.retry)
                } else {
                    fold?.absorb(waiting, keyLimit: Self.foldKeyLimit)
                }
            } else {
                if index == adoptIndex { adoptIndex = kept.count + head }
                kept.append(pending[index])
            }
        }
        guard var fold, let first else {
            pending.append(.routed(routed))
            routedWaiting += 1
            backlog += 1
            return (1, false)
        }
        fold.absorb(routed, keyLimit: Self.foldKeyLimit)
        pending.removeSubrange(head...)
        pending.append(contentsOf: kept)
        pending[head + first] = .routed(fold)
        foldIndex = head + first
        let change = 1 - routedWaiting
        backlog += change
        routedWaiting = 1
        return (change, true)
    }

    /// Queues `command` at `now`, collapsing the backlog when it is full or its oldest routed change is older
    /// than ``foldAge``.
    ///
    /// - Returns: the change in ``backlog`` (for the delivery-backlog gauge), and whether it collapsed.
    mutating func append(
        _ command: ControllerCommand, at now: ContinuousClock.Instant = .now
    ) -> (backlog: Int, collapsed: Bool) {
        switch command {
        case .routed(let routed):
            let through = routed.change.transactionID
            if let index = catchUpIndex, case .catchUp(let count, let previous, let since) = pending[index] {
                pending[index] = .catchUp(count: count + 1, through: max(previous, through), since: since)
                return (0, false)
            }
            if !routed.change.isResync, let index = foldIndex, case .routed(var fold) = pending[index] {
                pending[index] = .retry  // unique storage while folding
                fold.absorb(routed, keyLimit: Self.foldKeyLimit)
                pending[index] = .routed(fold)
                return (0, false)
            }
            // A resync refetches anyway: the changes waiting before it join its refetch.
            let isResync = routed.change.isResync && routedWaiting > 0
            let isBehind = !routed.change.isResync && oldestRoutedWaiting.map { now - $0 >= Self.foldAge } == true
            guard routedWaiting >= Self.backlogLimit || isResync || isBehind else {
                pending.append(command)
                routedWaiting += 1
                backlog += 1
                return (1, false)
            }
            if !isResync { return foldWaiting(routed) }
            // Collapse every waiting routed change into one catch-up, where the first of them waits.
            var collapsed = 1
            var first: Int?
            var since = routed.change.publishedAt
            var kept: [ControllerCommand] = []
            kept.reserveCapacity(pending.count - head)
            for index in head..<pending.count {
                if case .routed(let waiting) = pending[index] {
                    collapsed += 1
                    since = min(since, waiting.change.publishedAt)
                    if first == nil {
                        first = kept.count
                        kept.append(.retry)
                    }
                } else {
                    if index == adoptIndex { adoptIndex = kept.count + head }
                    kept.append(pending[index])
                }
            }
            let position = first.map { $0 + head } ?? pending.count
            pending.removeSubrange(head...)
            pending.append(contentsOf: kept)
            if position == pending.count { pending.append(.retry) }
            pending[position] = .catchUp(count: collapsed, through: through, since: since)
            catchUpIndex = position
            foldIndex = nil
            let change = 1 - routedWaiting
            backlog += change
            routedWaiting = 0
            return (change, true)
        case .adopt:
            if adoptsWaiting >= Self.backlogLimit, let index = adoptIndex {
                pending[index] = command
                return (0, true)
            }
            pending.append(command)
            adoptIndex = pending.count - 1
            adoptsWaiting += 1
            backlog += 1
            return (1, false)
        default:
            pending.append(command)
            return (0, false)
        }
    }

    /// Stops draining when no command waits.
    ///
    /// - Returns: `true` when the queue stopped; `false` when commands wait (the caller drains them).
    mutating func stopIfIdle() -> Bool {
        guard head >= pending.count else { return false }
        if !pending.isEmpty { pending.removeAll(keepingCapacity: false) }
        head = 0
        isDraining = false
        running = nil
        return true
    }

    /// The next command, or `nil` when none waits (the queue then stops draining).
    ///
    /// - Returns: the command and the change in ``backlog``.
    mutating func next() -> (command: ControllerCommand, backlog: Int)? {
        guard head < pending.count else {
            _ = stopIfIdle()
            return nil
        }
        let command = pending[head]
        running = command.published
        if head == catchUpIndex { catchUpIndex = nil }
        if head == adoptIndex { adoptIndex = nil }
        if head == foldIndex { foldIndex = nil }
        head += 1
        if head >= 64 && head * 2 >= pending.count {
            pending.removeFirst(head)
            catchUpIndex = catchUpIndex.map { $0 - head }
            adoptIndex = adoptIndex.map { $0 - head }
            foldIndex = foldIndex.map { $0 - head }
            head = 0
        }
        switch command {
        case .routed:
            routedWaiting -= 1
            backlog -= 1
            return (command, -1)
        case .catchUp:
            backlog -= 1
            return (command, -1)
        case .adopt:
            adoptsWaiting -= 1
            backlog -= 1
            return (command, -1)
        default:
            return (command, 0)
        }
    }
}

extension ControllerCommand {
    /// When the store change this command applies was published (a catch-up: its oldest); `nil` for other work.
    var published: ContinuousClock.Instant? {
        switch self {
        case .routed(let routed): return routed.change.publishedAt
        case .catchUp(_, _, let since): return since
        default: return nil
        }
    }
}
