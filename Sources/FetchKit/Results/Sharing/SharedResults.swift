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
        var followers: [ObjectIdentifier: WeakController] = [:]
        /// The version of the last batch handed to the followers.
        var lastVersion: UInt64 = 0
    }

    struct WeakController: Sendable {
        weak var controller: ResultsController<Object>?
    }

    let members: Mutex<Members>

    init(leader: ResultsController<Object>) {
        members = Mutex(Members(leader: leader))
    }

    /// The live followers, for handing on the batch of `version`.
    func followers(forVersion version: UInt64) -> [ResultsController<Object>] {
        members.withLock { members in
            members.lastVersion = max(members.lastVersion, version)
            return members.followers.values.compactMap(\.controller)
        }
    }

    /// The current leader.
    var leader: ResultsController<Object>? { members.withLock { $0.leader } }
}

/// Where a router finds the shared results of a request: by object type and request.
struct SharedResultsKey: Hashable, Sendable {
    let objectType: ObjectIdentifier
    let request: FetchRequest
}

extension ChangeRouter {
    /// A weakly held group of shared results.
    struct WeakGroup: Sendable {
        weak var group: (any AnyObject & Sendable)?
    }

    /// The shared results of `key`, if a group with a leader exists.
    func sharedResults<Object>(_ key: SharedResultsKey, as type: Object.Type) -> SharedResults<Object>? {
        groups.withLock { $0[key]?.group as? SharedResults<Object> }
    }

    /// Registers `group` as the shared results of `key`.
    func register<Object>(_ group: SharedResults<Object>, for key: SharedResultsKey) {
        groups.withLock { groups in
            if groups.count > 64 && groups.count.isMultiple(of: 64) { groups = groups.filter { $0.value.group != nil } }
            groups[key] = WeakGroup(group: group)
        }
    }
}
