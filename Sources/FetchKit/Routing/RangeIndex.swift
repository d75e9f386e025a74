import Foundation

/// The routes of one column by a range their predicates require of it (`score BETWEEN {3, 4}`, `due > %@`,
/// `name BEGINSWITH 'Zu'`): for a changed row, the routes whose range holds the row's value, without looking
/// at the others.
///
/// A centered interval tree: a value is found in O(log r + m) for r ranges and m hits. Routes that come and go
/// between rebuilds are kept aside (scanned one by one, or skipped) until enough have gathered to rebuild
/// (``prepare()``, which the router calls under its lock before it copies the index), so churn costs
/// O(√r log r) per route, amortised. Ranges are inclusive and a superset of what a predicate matches: the router
/// still evaluates each hit's predicate.
struct RangeIndex: Sendable {
    /// The values a route's predicate allows in the column: from `lower` to `upper` (`nil`: unbounded), both
    /// inclusive. `NULL` is in no range.
    struct Range: Sendable, Hashable {
        var lower: Value?
        var upper: Upper?

        /// Whether no value can be in the range.
        var isEmpty: Bool {
            guard let lower, let upper else { return false }
            return upper.isBelow(lower)
        }

        func contains(_ value: Value) -> Bool {
            if value.isNull { return false }
            if let lower, Value.databaseOrder(value, lower) == .orderedAscending { return false }
            if let upper, upper.isBelow(value) { return false }
            return true
        }
    }

    /// An upper bound: a value, or every text that starts with a prefix (`BEGINSWITH`).
    enum Upper: Sendable, Hashable {
        case value(Value)
        case prefix(String)

        /// Whether every value the bound allows is below `value` (`value` is above the range).
        func isBelow(_ value: Value) -> Bool {
            Self.compare(self, .value(value)) == .orderedAscending
        }

        /// Compares the greatest values two bounds allow: a prefix's is above every text that starts with it,
        /// and below any other text above the prefix.
        static func compare(_ a: Upper, _ b: Upper) -> ComparisonResult {
            switch (a, b) {
            case (.value(let x), .value(let y)):
                return Value.databaseOrder(x, y)
            case (.prefix(let p), .value(let y)):
                if case .text(let text) = y, text.utf8.starts(with: p.utf8) { return .orderedDescending }
                // A text above the prefix that does not start with it differs from it within the prefix: it is
                // above every text that starts with the prefix.
                return Value.databaseOrder(.text(p), y) == .orderedAscending ? .orderedAscending : .orderedDescending
            case (.value, .prefix):
                switch compare(b, a) {
                case .orderedAscending: return .orderedDescending
                case .orderedDescending: return .orderedAscending
                case .orderedSame: return .orderedSame
                }
            case (.prefix(let p), .prefix(let q)):
                if p == q { return .orderedSame }
                if p.utf8.starts(with: q.utf8) { return .orderedAscending }
                if q.utf8.starts(with: p.utf8) { return .orderedDescending }
                return Value.databaseOrder(.text(p), .text(q))
            }
        }
    }

    /// One node: the ranges that hold its center, by lower bound ascending and by upper bound descending.
    private struct Node: Sendable {
        var center: Value
        var byLower: [Int32]
        var byUpper: [Int32]
        var left: Int32 = -1
        var right: Int32 = -1
    }

    /// Every route's range.
    private(set) var ranges: [Int: Range] = [:]
    /// The tree's routes and their ranges, as they were at the last build.
    private var routes: [Int] = []
    private var bounds: [Range] = []
    private var nodes: [Node] = []
    private var root: Int32 = -1
    /// The routes in the tree.
    private var built: Set<Int> = []
    /// Routes come (or changed) since the last build: scanned one by one until the next.
    private var added: [Int: Range] = [:]
    /// Routes of the tree gone (or changed) since the last build: skipped.
    private var removed: Set<Int> = []

    var isEmpty: Bool { ranges.isEmpty }

    mutating func insert(_ id: Int, _ range: Range) {
        ranges[id] = range
        added[id] = range
        if built.contains(id) { removed.insert(id) }
    }

    mutating func remove(_ id: Int) {
        guard ranges.removeValue(forKey: id) != nil else { return }
        added[id] = nil
        if built.contains(id) { removed.insert(id) }
    }

    /// Rebuilds the tree once the routes come and gone since the last build are many enough: about 4 √r of r
    /// ranges, so that controllers coming and going cost O(√r log r) each, amortised, and a look-up scans at
    /// most as many ranges one by one.
    ///
    /// - Complexity: O(r log r) for r ranges when rebuilt, else O(1).
    mutating func prepare() {
        let threshold = max(16, 4 * Int(Double(ranges.count).squareRoot()))
        guard added.count + removed.count > threshold else { return }
        routes = []
        bounds = []
        nodes = []
        built = []
        for (id, range) in ranges where !range.isEmpty {
            routes.append(id)
            bounds.append(range)
            built.insert(id)
        }
        added = [:]
        removed = []
        root = build(Array(0..<Int32(bounds.count)))
    }

    /// Calls `body` with every route whose range holds `value` (each once).
    ///
    /// - Complexity: O(log r + m + a) for r ranges, m hits and a ranges come or gone since the last
    ///   ``prepare()`` that rebuilt.
    func forEach(holding value: Value, _ body: (Int) -> Void) {
        guard !value.isNull else { return }
        for (id, range) in added where range.contains(value) { body(id) }
        if removed.isEmpty {
            search(value, body)
        } else {
            search(value) { id in if !removed.contains(id) { body(id) } }
        }
    }

    /// The tree's routes whose range holds `value`.
    private func search(_ value: Value, _ body: (Int) -> Void) {
        var index = root
        while index >= 0 {
            let node = nodes[Int(index)]
            switch Value.databaseOrder(value, node.center) {
            case .orderedAscending:
                for member in node.byLower {
                    guard bounds[Int(member)].contains(value) else { break }
                    body(routes[Int(member)])
                }
                index = node.left
            case .orderedDescending:
                for member in node.byUpper {
                    if let upper = bounds[Int(member)].upper, upper.isBelow(value) { break }
                    if bounds[Int(member)].contains(value) { body(routes[Int(member)]) }
                }
                index = node.right
            case .orderedSame:
                for member in node.byLower where bounds[Int(member)].contains(value) { body(routes[Int(member)]) }
                index = -1
            }
        }
    }

    /// Builds the subtree of `members`, centered on the median of their lower bounds.
    private mutating func build(_ members: [Int32]) -> Int32 {
        guard !members.isEmpty else { return -1 }
        let lowers = members.compactMap { bounds[Int($0)].lower }.sorted {
            Value.databaseOrder($0, $1) == .orderedAscending
        }
        // Ranges all unbounded below: one node, scanned by upper bound.
        guard !lowers.isEmpty else { return leaf(members) }
        let center = lowers[lowers.count / 2]
        var left: [Int32] = []
        var right: [Int32] = []
        var middle: [Int32] = []
        for member in members {
            let range = bounds[Int(member)]
            if let upper = range.upper, upper.isBelow(center) {
                left.append(member)
            } else if let lower = range.lower, Value.databaseOrder(lower, center) == .orderedDescending {
                right.append(member)
            } else {
                middle.append(member)
            }
        }
        let index = Int32(nodes.count)
        nodes.append(Node(center: center, byLower: sortedByLower(middle), byUpper: sortedByUpper(middle)))
        let leftChild = build(left)
        let rightChild = build(right)
        nodes[Int(index)].left = leftChild
        nodes[Int(index)].right = rightChild
        return index
    }

    /// A node for ranges all unbounded below, centered below every value: a query scans it by upper bound.
    private mutating func leaf(_ members: [Int32]) -> Int32 {
        let index = Int32(nodes.count)
        nodes.append(Node(center: .null, byLower: sortedByLower(members), byUpper: sortedByUpper(members)))
        return index
    }

    private func sortedByLower(_ members: [Int32]) -> [Int32] {
        members.sorted { a, b in
            switch (bounds[Int(a)].lower, bounds[Int(b)].lower) {
            case (nil, nil): return a < b
            case (nil, _): return true
            case (_, nil): return false
            case (let x?, let y?): return Value.databaseOrder(x, y) == .orderedAscending
            }
        }
    }

    private func sortedByUpper(_ members: [Int32]) -> [Int32] {
        members.sorted { a, b in
            switch (bounds[Int(a)].upper, bounds[Int(b)].upper) {
            case (nil, nil): return a < b
            case (nil, _): return true
            case (_, nil): return false
            case (let x?, let y?): return Upper.compare(x, y) == .orderedDescending
            }
        }
    }
}
