/// The change router's input: committed changes waiting to be routed — bounded, whatever the rate of the
/// writers.
///
/// A value-type state machine: the router's feed task tells it of each change the store publishes
/// (``receive(_:)``), the routing task asks for the next one with the current instant (``take(at:)``). Changes
/// wait one by one while the router keeps up, so a controller gets one batch per transaction. Once more than
/// ``Limits/changes`` wait, or the oldest has waited longer than ``Limits/age``, or a `sync()` caller waits
/// (``expedite()``), everything waiting folds into one change (``StoreChange/folding(_:keyLimit:)``) and later
/// arrivals join it while it waits: a backlog becomes one re-read and one catch-up per affected controller,
/// not one per transaction replayed. Folding keeps every changed key, up to ``Limits/keysPerTable`` per table
/// and the whole table past it, and a resync folds everything into a resync — nothing is dropped.
///
/// Memory: at most ``Limits/changes`` changes as published, plus one fold of at most
/// ``Limits/keysPerTable`` keys per table.
struct ChangeInbox: Sendable {
    /// When waiting changes fold.
    struct Limits: Sendable {
        /// How many changes may wait one by one.
        var changes = 64
        /// How long the oldest may wait before everything waiting folds.
        var age = Duration.milliseconds(250)
        /// How many keys of one table a fold names before it becomes a whole-table change: a bound on the
        /// fold's memory (a few megabytes), far above what a transaction of a batch job names.
        var keysPerTable = 100_000
    }

    /// A change waiting, and how many published changes it covers (more than one once folded).
    struct Item: Sendable {
        var change: StoreChange
        var covers: Int
    }

    /// What ``take(at:)`` found.
    enum Take: Sendable {
        /// Route this change; it covers `covers` published changes.
        case route(StoreChange, covers: Int)
        /// Nothing waits: wait for the next ``receive(_:)`` (it returns `true`).
        case wait
        /// The feed ended and nothing waits.
        case finished
    }

    let limits: Limits
    /// The waiting changes, oldest first; `waiting[head...]` are live.
    private var waiting: [Item] = []
    private var head = 0
    /// Whether the last waiting item is a fold that later arrivals join.
    private var isFolding = false
    /// Whether the next ``take(at:)`` folds whatever waits.
    private var isExpedited = false
    /// Whether the router waits for a change (``take(at:)`` returned ``Take/wait``).
    private(set) var isAwaited = false
    private(set) var isFinished = false

    init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// How many items wait (a fold counts once).
    var count: Int { waiting.count - head }

    /// When the oldest waiting change was published.
    var oldestPublished: ContinuousClock.Instant? { head < waiting.count ? waiting[head].change.publishedAt : nil }

    /// A change the store published.
    ///
    /// - Returns: `true` when the router waits for it (wake it up).
    /// - Complexity: O(k) for the k keys the change names; O(n · k) when it folds the n waiting changes.
    mutating func receive(_ change: StoreChange) -> Bool {
        guard !isFinished else { return false }
        if isFolding, var last = waiting.popLast() {
            last.change.absorb(change, keyLimit: limits.keysPerTable)
            last.covers += 1
            waiting.append(last)
        } else {
            waiting.append(Item(change: change, covers: 1))
            if count > limits.changes { foldWaiting() }
        }
        return wake()
    }

    /// The feed ended: what waits is still routed, then ``take(at:)`` says ``Take/finished``.
    ///
    /// - Returns: `true` when the router waits (wake it up).
    mutating func finish() -> Bool {
        isFinished = true
        return wake()
    }

    /// Someone waits for the changes waiting now: the next ``take(at:)`` folds them into one.
    mutating func expedite() {
        if count > 1 { isExpedited = true }
    }

    /// The next change to route, folding what waits when it is too much or too old.
    ///
    /// - Complexity: O(n · k) when it folds the n waiting changes of k keys each, else O(1) amortised.
    mutating func take(at now: ContinuousClock.Instant) -> Take {
        guard head < waiting.count else {
            waiting.removeAll(keepingCapacity: true)
            head = 0
            isFolding = false
            isExpedited = false
            isAwaited = !isFinished
            return isFinished ? .finished : .wait
        }
        isAwaited = false
        if count > 1, isExpedited || now - waiting[head].change.publishedAt > limits.age { foldWaiting() }
        isExpedited = false
        let item = waiting[head]
        head += 1
        if head == waiting.count {
            waiting.removeAll(keepingCapacity: true)
            head = 0
            isFolding = false
        } else if head >= 64, head * 2 >= waiting.count {
            waiting.removeFirst(head)
            head = 0
        }
        return .route(item.change, covers: item.covers)
    }

    private mutating func wake() -> Bool {
        guard isAwaited else { return false }
        isAwaited = false
        return true
    }

    /// Folds every waiting change into one; later arrivals join it.
    private mutating func foldWaiting() {
        guard head < waiting.count else { return }
        var fold = waiting[head]
        for item in waiting[(head + 1)...] {
            fold.change.absorb(item.change, keyLimit: limits.keysPerTable)
            fold.covers += item.covers
        }
        waiting.removeAll(keepingCapacity: true)
        head = 0
        waiting.append(fold)
        isFolding = true
    }
}
