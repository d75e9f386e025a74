/// A controller's part in shared results (``SharedResults``), as one value: alone, leading a group, or following
/// one — never a leader without a group, or a follower of none.
enum SharingRole<Object: Sendable>: Sendable {
    /// It reads the store for itself (before its first fetch, while it fetches, after it left a group).
    case alone
    /// It keeps `group`'s results current and hands each batch on; `version` is the group's last batch it handed.
    case leading(SharedResults<Object>, version: UInt64)
    /// It delivers the batches of `group`'s leader; `version` is the group's batch its results are at.
    case following(SharedResults<Object>, version: UInt64?)

    /// The group it leads or follows.
    var group: SharedResults<Object>? {
        switch self {
        case .alone: nil
        case .leading(let group, _), .following(let group, _): group
        }
    }

    /// The group it leads, if it leads one.
    var ledGroup: SharedResults<Object>? {
        if case .leading(let group, _) = self { group } else { nil }
    }

    /// The group it follows, if it follows one.
    var followedGroup: SharedResults<Object>? {
        if case .following(let group, _) = self { group } else { nil }
    }

    /// Whether its batches come from a leader rather than from its own reads.
    var isFollower: Bool { followedGroup != nil }

    /// The group's batch its results are at: what a controller joining it takes with them.
    var version: UInt64? {
        switch self {
        case .alone: 0
        case .leading(_, let version): version
        case .following(_, let version): version
        }
    }

    /// Records that its results are at the group's batch `version` (`nil`: a local change made them differ).
    mutating func adopt(version: UInt64?) {
        switch self {
        case .alone: break
        case .leading(let group, _): self = .leading(group, version: version ?? 0)
        case .following(let group, _): self = .following(group, version: version)
        }
    }

    /// A follower takes the lead of the group it follows.
    mutating func promote() {
        if case .following(let group, let version) = self { self = .leading(group, version: version ?? 0) }
    }
}
