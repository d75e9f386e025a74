/// How the store's change router finds the changes that can affect a controller: by an index over the
/// controllers' predicates, by evaluating its predicate on every changed row, or not at all (every change of
/// the tables it reads). A controller's ``ResultsController/Statistics/routing``, and the `route` dimension of
/// its metrics.
public enum ControllerRouting: String, Sendable, Hashable, CaseIterable {
    /// Not fetched yet (or stopped): no change reaches it.
    case unrouted
    /// It follows the shared results of an equal request: their leader is routed.
    case follower
    /// Indexed by an equality conjunct (`grp == 7`, `id IN {1, 2}`): changed rows find it by hash.
    case equality
    /// Indexed by a range conjunct (`score BETWEEN {1, 2}`, `title BEGINSWITH 'a'`): changed rows find it in
    /// an interval tree.
    case range
    /// No conjunct to index: its predicate is evaluated in memory on every changed row of its table.
    case scan
    /// Every change of the tables it reads reaches it and the database decides (an offset, an order or a
    /// predicate memory cannot reproduce).
    case database
}
