extension ChangeRouter {
    /// One route: the controller it feeds and what it reads.
    struct Entry {
        weak var target: (any RouteTarget)?
        var plan: RoutePlan?
        /// Routed changes the controller has not finished applying.
        var pending = 0
        /// Refetches under way.
        var refreshing = 0
        /// The router's ``State/refetchBoundaries`` when a refetch of the route last began or ended: a change whose
        /// routes were copied before it is handed over whole (see ``ChangeRouter/route(_:)``).
        var refetchBoundary: UInt64 = 0
        /// While the route is busy: the keys of its entity table named by the changes it was handed and has
        /// not finished — the only rows it may come to hold beyond the router's holder index when its plan
        /// ``RoutePlan/isKeyBounded``; `nil` when a change it was handed names no keys (a resync, a whole
        /// table). Emptied when the route is idle.
        var pendingKeys: Set<Value>? = []

        /// Whether a busy route must receive a change of its entity table naming `keys` (a route that is not
        /// busy receives only what its plan and held keys call for).
        func needsWhileBusy(_ keys: Set<Value>?) -> Bool {
            guard refreshing == 0, let plan, plan.isKeyBounded, let pendingKeys, let keys else { return true }
            return !pendingKeys.isDisjoint(with: keys)
        }

        /// Notes a change handed to the route: `keys`, the keys it names in the route's entity table (`nil`:
        /// unknown).
        mutating func handed(_ keys: Set<Value>?) {
            guard pendingKeys != nil else { return }
            guard let keys else {
                pendingKeys = nil
                return
            }
            pendingKeys?.formUnion(keys)
        }

        /// Whether the route may be handed only the keys of a change that concern it (see
        /// ``ChangeRouter/route(_:)``): its plan is key bounded, it is not refetching, and every key it was
        /// handed while busy is known.
        var isNarrowable: Bool { refreshing == 0 && pendingKeys != nil && plan?.isKeyBounded == true }
    }

    /// The routes whose membership the router decides in memory, of one entity table.
    struct EntityRoutes {
        /// Routes without an indexable conjunct, with their predicates, evaluated on each changed row.
        var unindexed: [Int: InMemoryPredicate] = [:]
        /// The routes whose plan is ``RoutePlan/isLocal``: the router finds which changed keys concern them.
        var local: Set<Int> = []
        /// Routes with an indexable conjunct, with their predicates (checked after an index hit).
        var indexed: [Int: InMemoryPredicate] = [:]
        /// Routes by equality conjunct: column, then value.
        var equality: [String: [Value: RouteIDs]] = [:]
        /// Routes by range conjunct, by column (prepared before each copy the router reads).
        var ranges: [String: RangeIndex] = [:]
        /// The routes holding each row, by primary key.
        var holders = HolderIndex()
        /// Related tables followed to this table's rows: the foreign keys, each with how many routes use it.
        var foreignKeys: [String: [String: Int]] = [:]
        /// The related key paths re-read rows must carry, each with how many routes need it.
        var relatedColumns: [String: Int] = [:]
        /// Routes reading a to-many related table: its table, then its foreign key into this one, then the routes.
        var children: [String: [String: Set<Int>]] = [:]
        /// The number of routes.
        var count = 0
    }

    /// Everything the router's lock protects.
    struct State {
        var entries: [Int: Entry] = [:]
        var nextID = 0
        /// Routes with a plan, by every table they read.
        var readers: [String: Set<Int>] = [:]
        /// Routes every change of a table goes to: plans decided by the database, and tables a plan reads
        /// that cannot be localised.
        var direct: [String: Set<Int>] = [:]
        /// In-memory routes by entity table.
        var entities: [String: EntityRoutes] = [:]
        /// Routes applying a change or refetching: until they are done they receive every change that may
        /// name a row they are about to hold (every change, unless ``RoutePlan/isKeyBounded``: see
        /// ``Entry/pendingKeys``), so no change slips past such a row.
        var busy: Set<Int> = []
        /// Routes whose controllers report that they are behind (``ResultsStatus/catchingUp(lag:)``).
        var lagging: Set<Int> = []
        var routedThrough: UInt64
        /// How many refetches have begun or ended, on every route: it dates a copy of the routes against each
        /// route's ``Entry/refetchBoundary``.
        var refetchBoundaries: UInt64 = 0
        var waiters: [(transactionID: UInt64, continuation: CheckedContinuation<Void, Never>)] = []
        /// Why the store's feed cannot deliver, and the ID it published that under, while it cannot
        /// (``FeedDelivery``).
        var interruption: (error: FetchKitError, id: UInt64)?
        /// Whether the store's feed ended (the store closed).
        var feedEnded = false

        init(routedThrough: UInt64) {
            self.routedThrough = routedThrough
        }

        /// Notes that a refetch of route `id` begins or ends: its plan, its held keys or how it counts the keys it
        /// was handed may change here.
        mutating func crossRefetchBoundary(_ id: Int) {
            refetchBoundaries += 1
            entries[id]?.refetchBoundary = refetchBoundaries
        }

        mutating func updateBusy(_ id: Int) {
            guard var entry = entries[id], entry.pending > 0 || entry.refreshing > 0 else {
                busy.remove(id)
                if entries[id]?.pendingKeys?.isEmpty != true { entries[id]?.pendingKeys = [] }
                return
            }
            if entry.pending == 0, entry.pendingKeys?.isEmpty != true {
                // Refetching only: its plan and keys are replaced when the refetch ends.
                entry.pendingKeys = []
                entries[id] = entry
            }
            busy.insert(id)
        }

        mutating func install(_ plan: RoutePlan, id: Int) {
            for table in plan.tables { readers[table, default: []].insert(id) }
            guard let memory = plan.memory else {
                for table in plan.tables { direct[table, default: []].insert(id) }
                return
            }
            for table in memory.unlocalizable { direct[table, default: []].insert(id) }
            var routes = entities[plan.entityTable] ?? EntityRoutes()
            entities[plan.entityTable] = nil  // unique storage while mutating: no copy of every route per install
            routes.count += 1
            if plan.isLocal { routes.local.insert(id) }
            if let index = memory.index {
                for value in Set(index.values) {
                    if routes.equality[index.column]?[value]?.insert(id) == nil {
                        routes.equality[index.column, default: [:]][value] = RouteIDs(id)
                    }
                }
                routes.indexed[id] = memory.predicate
            } else if let range = memory.range {
                routes.ranges[range.column, default: RangeIndex()].insert(id, range.range)
                routes.indexed[id] = memory.predicate
            } else {
                routes.unindexed[id] = memory.predicate
            }
            for (table, foreignKey) in memory.relatedForeignKeys {
                routes.foreignKeys[table, default: [:]][foreignKey, default: 0] += 1
            }
            for column in memory.relatedColumns { routes.relatedColumns[column, default: 0] += 1 }
            for (table, foreignKey) in memory.childForeignKeys {
                routes.children[table, default: [:]][foreignKey, default: []].insert(id)
            }
            entities[plan.entityTable] = routes
        }

        mutating func uninstall(_ plan: RoutePlan, id: Int) {
            for table in plan.tables {
                readers[table]?.remove(id)
                if readers[table]?.isEmpty == true { readers[table] = nil }
                direct[table]?.remove(id)
                if direct[table]?.isEmpty == true { direct[table] = nil }
            }
            guard let memory = plan.memory, var routes = entities[plan.entityTable] else { return }
            entities[plan.entityTable] = nil  // unique storage while mutating
            routes.count -= 1
            routes.local.remove(id)
            if let index = memory.index {
                for value in Set(index.values) {
                    if routes.equality[index.column]?[value]?.remove(id) == false {
                        routes.equality[index.column]?[value] = nil
                    }
                }
                if routes.equality[index.column]?.isEmpty == true { routes.equality[index.column] = nil }
                routes.indexed[id] = nil
            } else if let range = memory.range {
                routes.ranges[range.column]?.remove(id)
                if routes.ranges[range.column]?.isEmpty == true { routes.ranges[range.column] = nil }
                routes.indexed[id] = nil
            } else {
                routes.unindexed[id] = nil
            }
            for (table, foreignKey) in memory.relatedForeignKeys {
                routes.foreignKeys[table]?[foreignKey, default: 1] -= 1
                if routes.foreignKeys[table]?[foreignKey] == 0 { routes.foreignKeys[table]?[foreignKey] = nil }
                if routes.foreignKeys[table]?.isEmpty == true { routes.foreignKeys[table] = nil }
            }
            for column in memory.relatedColumns {
                routes.relatedColumns[column, default: 1] -= 1
                if routes.relatedColumns[column] == 0 { routes.relatedColumns[column] = nil }
            }
            for (table, foreignKey) in memory.childForeignKeys {
                routes.children[table]?[foreignKey]?.remove(id)
                if routes.children[table]?[foreignKey]?.isEmpty == true { routes.children[table]?[foreignKey] = nil }
                if routes.children[table]?.isEmpty == true { routes.children[table] = nil }
            }
            entities[plan.entityTable] = routes.count == 0 ? nil : routes
        }

        mutating func addHolder(_ id: Int, keys: [Value], table: String, plan: RoutePlan) {
            guard plan.memory != nil, !keys.isEmpty else { return }
            var routes = entities[table] ?? EntityRoutes()
            entities[table] = nil  // unique storage while mutating
            for key in keys { routes.holders.add(id, key: key) }
            entities[table] = routes
        }

        mutating func removeHolder(_ id: Int, keys: [Value], table: String, plan: RoutePlan) {
            guard plan.memory != nil, !keys.isEmpty, var routes = entities[table] else { return }
            entities[table] = nil
            for key in keys { routes.holders.remove(id, key: key) }
            entities[table] = routes
        }
    }
}
