/// The routes holding each row of one entity table, by primary key: how a change to a row reaches the routes
/// it may leave (an update whose new values no longer match, a delete), which no index of predicates finds.
///
/// A row is almost always held by one route, and its key is almost always an integer: such a row costs one
/// entry of a dictionary of plain integers (16 bytes a slot, against 40 for a `Value` key and a set of
/// holders). Keys held by several routes, and keys of other types, are kept aside.
///
/// ```swift
/// var holders = HolderIndex()
/// holders.add(7, key: .integer(1))
/// holders.add(9, key: .integer(1))
/// holders.forEach(holding: .integer(1)) { print($0) }   // 7 and 9, in no particular order
/// ```
struct HolderIndex: Sendable {
    /// Integer keys held by exactly one route, with that route.
    private var single: [Int64: Int] = [:]
    /// Integer keys held by two routes or more.
    private var shared: [Int64: Set<Int>] = [:]
    /// Keys of any other type, with their routes.
    private var others: [Value: Set<Int>] = [:]

    /// No row held.
    init() {}

    /// `true` when no route holds a row.
    var isEmpty: Bool { single.isEmpty && shared.isEmpty && others.isEmpty }

    /// Calls `body` with each route holding the row whose primary key is `key`.
    ///
    /// - Complexity: O(1) plus the routes found.
    func forEach(holding key: Value, _ body: (Int) -> Void) {
        guard case .integer(let integer) = key else {
            others[key]?.forEach(body)
            return
        }
        if let id = single[integer] {
            body(id)
        } else if !shared.isEmpty, let ids = shared[integer] {
            ids.forEach(body)
        }
    }

    /// Records that route `id` holds the row whose primary key is `key`.
    ///
    /// - Complexity: O(1) amortised, O(h) for a key already held by h routes.
    mutating func add(_ id: Int, key: Value) {
        guard case .integer(let integer) = key else {
            others[key, default: []].insert(id)
            return
        }
        if let holder = single[integer] {
            guard holder != id else { return }
            single[integer] = nil
            shared[integer] = [holder, id]
        } else if shared[integer] != nil {
            shared[integer]?.insert(id)
        } else {
            single[integer] = id
        }
    }

    /// Records that route `id` no longer holds the row whose primary key is `key`.
    ///
    /// - Complexity: O(1) amortised, O(h) for a key held by h routes.
    mutating func remove(_ id: Int, key: Value) {
        guard case .integer(let integer) = key else {
            guard var ids = others.removeValue(forKey: key) else { return }
            ids.remove(id)
            if !ids.isEmpty { others[key] = ids }
            return
        }
        if let holder = single[integer] {
            if holder == id { single[integer] = nil }
            return
        }
        guard var ids = shared.removeValue(forKey: integer) else { return }
        ids.remove(id)
        if ids.count == 1, let last = ids.first {
            single[integer] = last
        } else if !ids.isEmpty {
            shared[integer] = ids
        }
    }
}
