import Synchronization

/// Controllers of one object type whose requests are equal, on one store: one of them (the leader) keeps
/// the results current and hands every batch to the others (the followers), which deliver it to their own
/// delegates and streams. 10,000 clients watching the same list cost one controller's work per write plus
/// 10,000 deliveries.
///
/// When the leader leaves (its request changes, or it is released) a follower takes over: it refetches once
/// and carries on.
final class SharedResults<Object: Sendable>: Sendable {
    struct Members: Sendable {
        weak var leader: ResultsController<Object>?
        /// The followers, weakly held, in a contiguous array that a batch's forwarding walks in place (a
        /// removal moves the last one into the gap).
        private(set) var followers: ContiguousArray<WeakFollower> = []
        /// Where each follower is in ``followers``.
        private var positions: [ObjectIdentifier: Int] = [:]

        init(leader: ResultsController<Object>) {
            self.leader = leader
        }

        var isEmpty: Bool { followers.isEmpty }

        /// Adds `controller` as a follower (once).
        mutating func add(_ controller: ResultsController<Object>) {
            let id = ObjectIdentifier(controller)
            guard positions[id] == nil else { return }
            positions[id] = followers.count
            followers.append(WeakFollower(controller: controller, id: id))
        }

        /// Removes the follower `id`, if it follows.
        ///
        /// - Complexity: O(1).
        mutating func remove(_ id: ObjectIdentifier) {
            guard let position = positions.removeValue(forKey: id) else { return }
            let last = followers.removeLast()
            guard position < followers.count else { return }
            followers[position] = last
            positions[last.id] = position
        }

        /// Removes followers until a live one is found, and returns it.
        mutating func removeFirstLive() -> ResultsController<Object>? {
            while let first = followers.first {
                remove(first.id)
                if let controller = first.controller {
                    return unsafeDowncast(controller, to: ResultsController<Object>.self)
                }
            }
            return nil
        }
    }

    let members: Mutex<Members>

    /// What the group hands on, in order: batches, and `sync()` barriers behind them.
    enum Outgoing: Sendable {
        /// A batch, with the metrics of the followers' route and the commit of the oldest change it shows.
        case batch(ResultsBatch<Object>, version: UInt64, metrics: RouteMetrics?, since: ContinuousClock.Instant?)
        case barrier(CheckedContinuation<Void, Never>)
    }

    private struct Outbox: ~Copyable {
        var pending: [Outgoing] = []
        var isForwarding = false
        /// The version of the last batch handed on: batches are numbered in the order they are handed on.
        var version: UInt64 = 0
    }

    private let outbox = Mutex(Outbox())
    /// The tasks that hand batches on: the census of the controller that formed the group.
    private let census: TaskCensus

    init(leader: ResultsController<Object>) {
        members = Mutex(Members(leader: leader))
        census = leader.census
    }

    /// Hands `update` to every follower, after the batches handed on before it; the followers' deliveries count in
    /// `metrics`, timed from `since`, the commit of the oldest change it shows.
    ///
    /// - Returns: the batch's version.
    @discardableResult
    func forward(
        _ update: ResultsBatch<Object>, metrics: RouteMetrics? = nil, since: ContinuousClock.Instant? = nil
    ) -> UInt64 {
        var version: UInt64 = 0
        send { outbox in
            outbox.version += 1
            version = outbox.version
            return .batch(update, version: version, metrics: metrics, since: since)
        }
        return version
    }

    /// Waits until every batch handed on so far has reached its followers (run, or queued behind their work).
    func waitForwarded() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            send { _ in .barrier(continuation) }
        }
    }

    private func send(_ make: (inout Outbox) -> Outgoing) {
        let start = outbox.withLock { outbox -> Bool in
            outbox.pending.append(make(&outbox))
            guard !outbox.isForwarding else { return false }
            outbox.isForwarding = true
            return true
        }
        if start { census.start { await self.forwardAll() } }
    }

    /// Hands on queued batches one at a time; each fans out over the cores in slices of followers, and a
    /// follower that is idle delivers it on the slice's task (no task of its own).
    private func forwardAll() async {
        while let outgoing = nextOutgoing() {
            switch outgoing {
            case .barrier(let continuation):
                continuation.resume()
            case .batch(let update, let version, let metrics, let since):
                // The boxes, not the controllers: each follower is loaded just before it delivers, and released
                // right after.
                let followers = members.withLock { $0.followers }
                let group = ObjectIdentifier(self)
                let slice = 128
                await withTaskGroup(of: Void.self) { tasks in
                    for start in stride(from: 0, to: followers.count, by: slice) {
                        let end = Swift.min(start + slice, followers.count)
                        tasks.addTask {
                            var delivered = 0
                            for index in start..<end {
                                guard let follower = followers[index].controller else { continue }
                                if await unsafeDowncast(follower, to: ResultsController<Object>.self)
                                    .runAdopt(update, version: version, group: group, since: since)
                                {
                                    delivered += 1
                                }
                            }
                            // Once per slice: its last delivery's latency, and how many it delivered.
                            if delivered > 0 { metrics?.delivered(since: since, count: delivered) }
                        }
                    }
                }
            }
        }
    }

    private func nextOutgoing() -> Outgoing? {
        outbox.withLock { outbox in
            guard !outbox.pending.isEmpty else {
                outbox.isForwarding = false
                return nil
            }
            return outbox.pending.removeFirst()
        }
    }

    /// Whether any controller follows (a batch nobody follows is not handed on: a joining follower takes the
    /// leader's current results).
    var hasFollowers: Bool { members.withLock { !$0.isEmpty } }

    /// How many controllers follow.
    var followerCount: Int { members.withLock { $0.followers.count } }

    /// The live followers.
    var followers: [ResultsController<Object>] {
        members.withLock { members in
            var live: [ResultsController<Object>] = []
            live.reserveCapacity(members.followers.count)
            for follower in members.followers {
                if let controller = follower.controller {
                    live.append(unsafeDowncast(controller, to: ResultsController<Object>.self))
                }
            }
            return live
        }
    }

    /// The current leader.
    var leader: ResultsController<Object>? { members.withLock { $0.leader } }
}

/// A follower of shared results, weakly held, in a box: forwarding reads the reference where it is. (A weak
/// reference in an array's element is copied out first, through its type's witnesses: two atomic operations
/// more per follower and batch.)
final class WeakFollower: Sendable {
    weak let controller: (any AnyObject & Sendable)?
    let id: ObjectIdentifier

    init(controller: any AnyObject & Sendable, id: ObjectIdentifier) {
        self.controller = controller
        self.id = id
    }
}

/// Where a router finds the shared results of a request: by object type and request.
struct SharedResultsKey: Hashable, Sendable {
    let objectType: ObjectIdentifier
    let request: AnyFetchRequest
}

extension ChangeRouter {
    /// A weakly held group of shared results.
    struct WeakGroup: Sendable {
        weak var group: (any AnyObject & Sendable)?
    }

    /// The groups of shared results by request, weakly held; the released ones are dropped each time the table
    /// doubles, so registering stays O(1) amortised however many requests a process keeps.
    struct SharedGroups: Sendable {
        var byKey: [SharedResultsKey: WeakGroup] = [:]
        /// The size at which the released groups are dropped next.
        var pruneAt = 64
    }

    /// The shared results of `key`, if a group with a leader exists.
    func sharedResults<Object>(_ key: SharedResultsKey, as type: Object.Type) -> SharedResults<Object>? {
        groups.withLock { $0.byKey[key]?.group as? SharedResults<Object> }
    }

    /// Registers `group` as the shared results of `key`.
    ///
    /// - Complexity: O(1) amortised.
    func register<Object>(_ group: SharedResults<Object>, for key: SharedResultsKey) {
        groups.withLock { groups in
            if groups.byKey.count >= groups.pruneAt {
                groups.byKey = groups.byKey.filter { $0.value.group != nil }
                groups.pruneAt = max(64, 2 * groups.byKey.count)
            }
            groups.byKey[key] = WeakGroup(group: group)
        }
    }
}
