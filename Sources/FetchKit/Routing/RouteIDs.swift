/// The routes of one entry of an index (one value of an equality index): almost always a single route, kept
/// without a set's allocation (a set of one route is 80 bytes, and each of 10,000 controllers `grp == k` has
/// its own value).
///
/// ```swift
/// var ids = RouteIDs(7)
/// ids.insert(9)
/// for id in ids { print(id) }   // 7 and 9, in no particular order
/// ```
enum RouteIDs: Sendable, Equatable {
    case one(Int)
    case many(Set<Int>)

    /// The routes of an entry made for `id`.
    init(_ id: Int) {
        self = .one(id)
    }

    /// Adds `id`.
    ///
    /// - Complexity: O(1) amortised.
    mutating func insert(_ id: Int) {
        switch self {
        case .one(let other) where other == id: return
        case .one(let other): self = .many([other, id])
        case .many(var ids):
            self = .one(id)  // releases the set, so it is uniquely held and grows in place
            ids.insert(id)
            self = .many(ids)
        }
    }

    /// Removes `id`; `false` when no route is left (the entry is to be dropped).
    ///
    /// - Complexity: O(1) amortised.
    mutating func remove(_ id: Int) -> Bool {
        switch self {
        case .one(let other): return other != id
        case .many(var ids):
            self = .one(id)
            ids.remove(id)
            if ids.count == 1, let last = ids.first {
                self = .one(last)
            } else {
                self = .many(ids)
            }
            return !ids.isEmpty
        }
    }
}

extension RouteIDs: Sequence {
    /// Walks the routes, in no particular order.
    struct Iterator: IteratorProtocol {
        fileprivate var one: Int?
        fileprivate var many: Set<Int>.Iterator?

        mutating func next() -> Int? {
            if let id = one {
                one = nil
                return id
            }
            return many?.next()
        }
    }

    func makeIterator() -> Iterator {
        switch self {
        case .one(let id): Iterator(one: id, many: nil)
        case .many(let ids): Iterator(one: nil, many: ids.makeIterator())
        }
    }

    var underestimatedCount: Int {
        switch self {
        case .one: 1
        case .many(let ids): ids.count
        }
    }
}
