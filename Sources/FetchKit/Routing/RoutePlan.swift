/// What the change router knows of one controller's request: the tables it reads, and — when its
/// membership can be decided in memory — the predicate, the columns to re-read for it and the equality
/// conjunct that indexes it.
///
/// A class: the controller and the router's route table share one plan (a route's entry is then a few words,
/// not the plan's two hundred bytes once more).
final class RoutePlan: Sendable {
    /// The table of the request's entity.
    let entityTable: String
    /// Every table whose changes can change the results.
    let tables: Set<String>
    /// How the router decides whether a change can affect the controller; `nil`: every change to one of
    /// ``tables`` can (the controller asks the database itself).
    let memory: Memory?
    /// Whether the controller can only come to hold a row that a change it was handed names: it has no window (no
    /// limit or offset: no keyset refill) and no to-one related table (no rows found through a changed related
    /// row), and its membership is decided in memory on the entity's own rows, or it reads only to-many related
    /// tables besides (the rows it re-reads are the parents its changed child rows name, ``TableChange/references``).
    /// The router then sends such a controller, while it is busy, only the changes that name a row it holds or was
    /// handed (see ``ChangeRouter/Entry/pendingKeys``), not every change.
    let isKeyBounded: Bool
    /// Whether the controller's membership is decided in memory on the entity's own rows alone (no related
    /// table): a change can only affect it through a row it holds or a changed row its predicate matches, so an
    /// idle controller is handed just those rows of a change (see ``ChangeRouter/route(_:)``). So is a window's
    /// (`fetchLimit`).
    let isLocal: Bool

    /// The in-memory side of a plan.
    struct Memory: Sendable {
        /// The request's predicate, when ``decides``; otherwise the conjuncts of it that can be evaluated in
        /// memory: a row it rejects cannot be in the results, a row it accepts may be.
        let predicate: InMemoryPredicate
        /// Whether ``predicate`` decides membership (`false` when the request reads a to-many relationship: the
        /// controller asks the database about the rows the router hands it).
        let decides: Bool
        /// The key paths beyond the entity's own attributes that re-read rows must carry (`category.name`).
        let relatedColumns: Set<String>
        /// An equality conjunct: the controller can only hold rows whose `column` is one of `values`.
        let index: (column: String, values: [Value])?
        /// Without an equality conjunct, a range conjunct: the controller can only hold rows whose `column` is in
        /// `range` (``rangeConjunct(of:entity:schema:)``). Boxed: most plans have none, and inline it would
        /// take sixty bytes of every plan.
        let range: RangeConjunct?
        /// Related tables whose changes are localised through the entity's foreign key into each.
        let relatedForeignKeys: [String: String]
        /// To-many related tables whose changes are localised through their foreign key back into the entity:
        /// a changed row re-evaluates the entity rows it pointed at (``TableChange/references``).
        let childForeignKeys: [String: String]
        /// Related tables the request reads that cannot be localised (their changes refetch).
        let unlocalizable: Set<String>
    }

    /// The plan of `request` (which must be valid), deciding in memory where `dialect` allows it.
    init(request: AnyFetchRequest, schema: Schema, dialect: SQLDialect, incremental: Bool) throws {
        let validated = try request.validated(in: schema)
        let entity = try schema.entity(named: validated.entityName)
        entityTable = entity.table
        tables = try validated.tablesRead(in: schema).interned()
        let effective = validated.sectionOrdered
        let children = try validated.localizableChildTables(in: schema)
        guard incremental, ResultsControllerOrder.make(for: validated, in: schema) != nil,
            let (predicate, decides) = Self.memoryPredicate(
                effective.predicate, entity: entity, schema: schema, dialect: dialect, children: children)
        else {
            memory = nil
            isKeyBounded = false
            isLocal = false
            return
        }
        var columns = predicate.columns
        for descriptor in effective.sortDescriptors { columns.insert(descriptor.key) }
        if let section = effective.sectionNameKeyPath { columns.insert(section) }
        for property in effective.propertiesToFetch ?? [] { columns.insert(property) }
        for keyPath in try effective.prefetchedKeyPaths(of: entity, in: schema) { columns.insert(keyPath) }
        let attributes = Set(entity.attributes.map(\.name)).union([entity.primaryKey.name])
        let foreignKeys = try validated.localizableRelatedTables(in: schema)
        isLocal = foreignKeys.isEmpty && tables == [entity.table]
        let childTables = decides ? [:] : children
        let readsChildrenOnly =
            !childTables.isEmpty && foreignKeys.isEmpty && tables == Set(childTables.keys).union([entity.table])
        isKeyBounded =
            (isLocal || readsChildrenOnly) && validated.fetchLimit == nil && validated.fetchOffset == 0
        let index = Self.indexConjunct(of: effective.predicate, entity: entity, schema: schema)
        memory = Memory(
            predicate: predicate, decides: decides, relatedColumns: columns.subtracting(attributes), index: index,
            range: index == nil
                ? Self.rangeConjunct(of: effective.predicate, entity: entity, schema: schema).map(RangeConjunct.init)
                : nil,
            relatedForeignKeys: foreignKeys, childForeignKeys: childTables,
            unlocalizable: tables.subtracting(foreignKeys.keys).subtracting(childTables.keys)
                .subtracting([entity.table]))
    }

    /// The predicate a plan evaluates in memory and whether it decides membership: the request's own when it can
    /// be evaluated in memory; else, when the request reads localisable to-many tables, the top-level conjuncts
    /// that can (`id == 7` of `id == 7 AND ANY todos.priority > 3`), which only rule rows out.
    private static func memoryPredicate(
        _ predicate: FetchPredicate, entity: Entity, schema: Schema, dialect: SQLDialect, children: [String: String]
    ) -> (InMemoryPredicate, Bool)? {
        if let exact = InMemoryPredicate(predicate, entity: entity, schema: schema, dialect: dialect) {
            return (exact, true)
        }
        guard !children.isEmpty else { return nil }
        let conjuncts: [FetchPredicate]
        if case .and(let parts) = predicate.node { conjuncts = parts } else { conjuncts = [predicate] }
        let evaluable = conjuncts.filter {
            InMemoryPredicate($0, entity: entity, schema: schema, dialect: dialect) != nil
        }
        return InMemoryPredicate(.and(evaluable), entity: entity, schema: schema, dialect: dialect).map { ($0, false) }
    }

    /// The first top-level conjunct `key == constant` or `key IN {constants}` on a column whose equality is
    /// exact on stored values (no folding, not a double: `-0.0` and `0.0` hash apart), to index the controller by.
    static func indexConjunct(
        of predicate: FetchPredicate, entity: Entity, schema: Schema
    ) -> (column: String, values: [Value])? {
        let conjuncts: [FetchPredicate]
        switch predicate.node {
        case .and(let parts): conjuncts = parts
        case .comparison: conjuncts = [predicate]
        default: return nil
        }
        for case .comparison(let comparison) in conjuncts.lazy.map(\.node)
        where comparison.quantifier == .one && comparison.options.isEmpty {
            // The request was validated: a key that does not resolve here only means no index from it.
            guard case .key(let key) = comparison.lhs.node, let path = try? schema.resolve(key, from: entity),
                !path.crossesToMany, path.attribute.type != .double
            else { continue }
            let values: [Value]
            switch (comparison.op, comparison.rhs.node) {
            case (.equal, .value(let value)): values = [value]
            case (.in, .list(let list)): values = list
            default: continue
            }
            // Only values of the column's own type: anything else compares across types in SQL.
            guard values.allSatisfy({ $0.isNull || $0.attributeType == path.attribute.type }) else { continue }
            return (key.description, values)
        }
        return nil
    }
}

/// Whether a request's order can be kept in memory (see ``ResultsController/incrementalOrder(for:in:)``),
/// without naming the controller's object type.
enum ResultsControllerOrder {
    static func make(for request: AnyFetchRequest, in schema: Schema) -> SortKeyOrder? {
        ResultsController<Row>.incrementalOrder(for: request, in: schema)
    }
}
