/// The routes holding each row of one entity table, by primary key: how a change to a row reaches the routes
/// it may leave (an update whose new values no longer match, a delete), which no index of predicates finds.
///
/// A row is almost always held by one route or two, and its key is almost always an integer: such a row costs
/// one entry per holder in dictionaries of plain integers (12 bytes a slot, against 40 for a `Value` key and a
/// set of holders, and a set's allocation for a second holder). Third and later holders of a key, and keys of
/// other types, are kept aside.
///
/// ```swift
/// var holders = HolderIndex()
/// holders.add(7, key: .integer(1))
/// holders.add(9, key: .integer(1))
/// holders.forEach(holding: .integer(1)) { print($0) }   // 7 and 9, in no particular order
/// ```
struct HolderIndex: Sendable {
    /// The first route holding each integer key: every integer key held by a route whose ID fits 32 bits has
    /// one. (Route IDs count up from zero: one beyond 32 bits takes four billion registrations on one store.)
    private var first: [Int64: UInt32] = [:]
    /// The second route holding an integer key, for keys held by two routes or more.
    private var second: [Int64: UInt32] = [:]
    /// The third and later routes holding an integer key.
    private var more: [Int64: Set<UInt32>] = [:]
    /// Routes whose IDs do not fit 32 bits, by the integer keys they hold.
    private var overflow: [Int64: Set<Int>] = [:]
    /// Keys of any other type, with their routes.
    private var others: [Value: Set<Int>] = [:]

    /// No row held.
    init() {}

    /// `true` when no route holds a row.
    var isEmpty: Bool { first.isEmpty && overflow.isEmpty && others.isEmpty }

    /// Calls `body` with each route holding the row whose primary key is `key`.
    ///
    /// - Complexity: O(1) plus the routes found.
    func forEach(holding key: Value, _ body: (Int) -> Void) {
        guard case .integer(let integer) = key else {
            others[key]?.forEach(body)
            return
        }
        if !overflow.isEmpty { overflow[integer]?.forEach(body) }
        guard let id = first[integer] else { return }
        body(Int(id))
        guard !second.isEmpty, let next = second[integer] else { return }
        body(Int(next))
        if !more.isEmpty, let later = more[integer] {
            for id in later { body(Int(id)) }
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
        guard let id = UInt32(exactly: id) else {
            overflow[integer, default: []].insert(id)
            return
        }
        guard let holder = first[integer] else {
            first[integer] = id
            return
        }
        guard holder != id else { return }
        guard let next = second[integer] else {
            second[integer] = id
            return
        }
        if next != id { more[integer, default: []].insert(id) }
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
        guard let id = UInt32(exactly: id) else {
            guard var ids = overflow.removeValue(forKey: integer) else { return }
            ids.remove(id)
            if !ids.isEmpty { overflow[integer] = ids }
            return
        }
        guard let holder = first[integer] else { return }
        if holder == id {
            // The second holder, if any, becomes the first; a later one, if any, the second.
            first[integer] = second[integer]
            second[integer] = takeLater(of: integer)
        } else if second[integer] == id {
            second[integer] = takeLater(of: integer)
        } else if var ids = more.removeValue(forKey: integer) {
            ids.remove(id)
            if !ids.isEmpty { more[integer] = ids }
        }
    }

    /// Removes and returns one of the third and later holders of `key`, if it has any.
    private mutating func takeLater(of key: Int64) -> UInt32? {
        guard !more.isEmpty, var ids = more.removeValue(forKey: key) else { return nil }
        let id = ids.removeFirst()
        if !ids.isEmpty { more[key] = ids }
        return id
    }
}
