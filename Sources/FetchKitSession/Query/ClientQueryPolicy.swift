@_spi(Backend) import FetchKit

/// What a client may narrow its list by: the keys it may filter on and the keys it may sort by. Anything else
/// is refused with a message that names the key — the server's own request and the user's scope are never
/// the client's to change.
///
/// ```swift
/// let policy = ClientQueryPolicy(filterable: ["title", "done", "lane"], sortable: ["title", "position"])
/// ```
///
/// A client's filter is FetchKit's format syntax, limited to comparisons of an allowed key with literal
/// values (`title BEGINSWITH[c] 'w' AND done == NO`), joined by `AND`, `OR` and `NOT`. Refused: `MATCHES`
/// (a regular expression is the client's to make slow), `$variables`, `SUBQUERY`, aggregates, `@count`,
/// arithmetic and `ANY`/`ALL` over to-many keys.
public struct ClientQueryPolicy: Sendable, Hashable {
    /// Key paths a client's filter may compare.
    public var filterableKeys: Set<String>
    /// Key paths a client may sort by.
    public var sortableKeys: Set<String>
    /// The most comparisons a client's filter may hold.
    public var maximumComparisons = 32
    /// The most keys a client may sort by.
    public var maximumSortKeys = 4
    /// The longest filter, in UTF-8 bytes.
    public var maximumFilterLength = 2_000

    /// A policy that allows filtering on `filterable` and sorting by `sortable`; nothing by default.
    public init(filterable: Set<String> = [], sortable: Set<String> = []) {
        filterableKeys = filterable
        sortableKeys = sortable
    }

    /// The client's filter as a predicate, once every key and construct in it is allowed.
    ///
    /// - Throws: ``SessionError`` — `forbidden` naming a key the policy does not allow, `invalid` for a filter that
    ///   does not parse or uses a construct clients may not.
    public func predicate(fromFilter filter: String) throws(SessionError) -> FetchPredicate {
        guard filter.utf8.count <= maximumFilterLength else {
            throw SessionError(.invalid, "a filter is at most \(maximumFilterLength) bytes")
        }
        let predicate: FetchPredicate
        do {
            predicate = try FetchPredicate(format: filter, argumentArray: [])
        } catch {
            throw SessionError(sanitizing: error)
        }
        var comparisons = 0
        try check(predicate, comparisons: &comparisons)
        return predicate
    }

    /// The client's sort keys as sort descriptors, once every key is allowed.
    ///
    /// - Throws: ``SessionError`` `forbidden` naming a key the policy does not allow; `invalid` past
    ///   ``maximumSortKeys``.
    public func sortDescriptors(from sort: [ClientSort]) throws(SessionError) -> [FetchSortDescriptor] {
        guard sort.count <= maximumSortKeys else {
            throw SessionError(.invalid, "a list sorts by at most \(maximumSortKeys) keys")
        }
        return try sort.map { (key) throws(SessionError) in
            guard sortableKeys.contains(key.key) else {
                throw SessionError(.forbidden, "'\(key.key.prefix(80))' cannot be sorted by")
            }
            return FetchSortDescriptor(key.key, ascending: key.ascending)
        }
    }

    private func check(_ predicate: FetchPredicate, comparisons: inout Int) throws(SessionError) {
        switch predicate.node {
        case .constant: return
        case .and(let parts), .or(let parts):
            for part in parts { try check(part, comparisons: &comparisons) }
        case .not(let inner):
            try check(inner, comparisons: &comparisons)
        case .comparison(let comparison):
            comparisons += 1
            guard comparisons <= maximumComparisons else {
                throw SessionError(.invalid, "a filter holds at most \(maximumComparisons) comparisons")
            }
            try check(comparison)
        }
    }

    private func check(_ comparison: FetchPredicate.Comparison) throws(SessionError) {
        guard comparison.quantifier == .one else {
            throw SessionError(.invalid, "a filter cannot use ANY, ALL, SOME or NONE")
        }
        guard comparison.op != .matches else { throw SessionError(.invalid, "a filter cannot use MATCHES") }
        guard case .key(let key) = comparison.lhs.node else {
            throw SessionError(.invalid, "each comparison of a filter starts with a key")
        }
        guard filterableKeys.contains(key.description) else {
            throw SessionError(.forbidden, "'\(key.description.prefix(80))' cannot be filtered")
        }
        switch comparison.rhs.node {
        case .value, .list: return
        case .variable: throw SessionError(.invalid, "a filter cannot use $variables")
        default: throw SessionError(.invalid, "a filter compares a key with literal values only")
        }
    }
}
