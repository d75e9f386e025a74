/// How a store's change router would find the changes for a live controller of a request, without making one:
/// what `fetchkit explain` prints.
///
/// ```swift
/// let route = try store.explainRoute(FetchRequest<Row>(entity: "Todo", predicate: .key("listID") == 7).erased)
/// // route.routing == .equality, route.indexedBy == "list_id", route.membershipInMemory == true
/// ```
public struct RouteExplanation: Sendable, Hashable {
    /// How changes find the controller (never ``ControllerRouting/follower`` or ``ControllerRouting/unrouted``: those
    /// depend on the other controllers alive).
    public var routing: ControllerRouting
    /// The column of the equality or range conjunct that indexes it, if any.
    public var indexedBy: String?
    /// Whether a changed row's membership is decided in memory, as the database would decide it; `false` when the
    /// controller asks the database (an offset, a to-many relationship, an order or a predicate memory cannot
    /// reproduce).
    public var membershipInMemory: Bool
    /// The tables whose changes can change the results.
    public var tables: [String]
}

extension PersistentStore {
    /// How this store's change router would route a live controller of `request`.
    ///
    /// - Throws: what the request's validation throws (an unknown entity or key, a mistyped value).
    public func explainRoute(_ request: AnyFetchRequest) throws -> RouteExplanation {
        let plan = try RoutePlan(request: request, schema: schema, dialect: dialect, incremental: true)
        let memory = plan.memory
        return RouteExplanation(
            routing: plan.routing, indexedBy: memory?.index?.column ?? memory?.range?.column,
            membershipInMemory: memory?.decides == true, tables: plan.tables.sorted())
    }
}

extension RoutePlan {
    /// How the router finds the changes for a controller with this plan.
    var routing: ControllerRouting {
        guard let memory else { return .database }
        return memory.index != nil ? .equality : memory.range != nil ? .range : .scan
    }
}
