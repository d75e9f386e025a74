extension ChangeRouter {
    /// What one entity table's routes need read for a change.
    struct ReadSpec: Sendable {
        let entityName: String
        let primaryKey: String
        /// The changed keys of the table itself.
        var keys: Set<Value>
        /// What the change says those rows became, where the store knows (``TableChange/images``).
        var images: [Value: TableChange.Image] = [:]
        /// Changed related rows to follow: table, the foreign keys into it, its changed keys.
        var follow: [(table: String, foreignKeys: Set<String>, keys: Set<Value>)]
        /// Changed rows of to-many related tables: the routes reading each through a foreign key, and the keys of
        /// the table's rows those changed rows pointed at (read, unchanged, to find which of the routes they
        /// concern).
        var referenced: [(routes: Set<Int>, keys: Set<Value>)] = []
        let relatedColumns: Set<String>
    }

    /// Hands `change` to every route it can affect, then records it as routed — in a `fetchkit.route` span, a
    /// child of the change's writer where it has one (``FetchKitTracing``).
    func route(_ change: StoreChange) async {
        await FetchKitTracing.span(
            "fetchkit.route", kind: .consumer, parent: change.traces,
            attributes: traceAttributes + [
                ("fetchkit.transaction.id", .int(Int(truncatingIfNeeded: change.transactionID))),
                ("fetchkit.tables", .string(change.isResync ? "*" : change.tables.keys.sorted().joined(separator: ",")))
            ]
        ) { span in
            await route(change, span: span)
        }
    }

    private func route(_ change: StoreChange, span: TraceSpan) async {
        let (directIDs, specs, unnamed) = state.withLock { state in
            state.dispatchPlan(for: change, schema: store.schema)
        }
        var reread: [String: RereadRows] = [:]
        var referenced: [String: [Value: Row]] = [:]
        var unread: Set<String> = []
        for (table, spec) in specs {
            do {
                (reread[table], referenced[table]) = try await read(spec)
            } catch {
                logger.debug(
                    "re-reading changed rows failed; their controllers read for themselves",
                    metadata: ["table": "\(table)", "error": "\(error)"])
                unread.insert(table)
            }
        }
        var item = RoutedChange(change: change, rows: reread)
        // The route span, bound as the task's context now: the parent of each controller's apply span.
        item.trace = .current
        // The keys the change names in a table (`nil`: unknown), as a busy route's pending keys count them.
        var named: [String: Set<Value>?] = [:]
        func keys(in table: String) -> Set<Value>? {
            if let known = named[table] { return known }
            var keys: Set<Value>?
            if change.isResync {
                keys = nil
            } else if let own = change.tables[table] {
                keys = own.isWholeTable ? nil : own.allKeys.union(reread[table]?.keys ?? [])
            } else {
                keys = reread[table]?.keys ?? []
            }
            named[table] = .some(keys)
            return keys
        }
        // The keys a change names for a route: of its entity table, and for a route reading to-many tables the
        // parents its changed child rows pointed at (`nil`: unknown).
        func keys(for id: Int, plan: RoutePlan) -> Set<Value>? {
            guard var own = keys(in: plan.entityTable) else { return nil }
            guard plan.memory?.childForeignKeys.isEmpty == false else { return own }
            if unnamed.contains(id) { return nil }
            for (routeIDs, parents) in specs[plan.entityTable]?.referenced ?? [] where routeIDs.contains(id) {
                own.formUnion(parents)
            }
            return own
        }
        // The routes to consider, copied under the lock with the busy ones that may hold a row the change names
        // (read together: a route that stops being busy has its held keys in the copy, or among the keys it was
        // handed); the predicates are evaluated outside it.
        var concerns: [Int: Set<Value>] = [:]
        let (busy, routes, readers, copiedAt) = state.withLock { state in
            var busy: Set<Int> = []
            for id in state.busy {
                guard let entry = state.entries[id] else { continue }
                let named = entry.plan.flatMap { keys(for: id, plan: $0) }
                guard entry.needsWhileBusy(named) else { continue }
                busy.insert(id)
                if entry.isNarrowable, let named, let pending = entry.pendingKeys {
                    concerns[id] =
                        pending.count < named.count ? pending.filter(named.contains) : named.filter(pending.contains)
                }
            }
            for table in reread.keys { state.entities[table]?.prepareRanges() }
            return (
                busy, reread.keys.compactMap { table in state.entities[table].map { (table, $0) } },
                unread.flatMap { state.readers[$0] ?? [] }, state.refetchBoundaries
            )
        }
        var ids = directIDs.union(busy).union(readers)
        for (table, entityRoutes) in routes {
            if let rows = reread[table] { entityRoutes.candidates(for: rows, into: &ids, concerns: &concerns) }
            for (routeIDs, keys) in specs[table]?.referenced ?? [] {
                entityRoutes.candidates(referencing: keys, rows: referenced[table] ?? [:], among: routeIDs, into: &ids)
            }
        }
        // In route order, the same for every change: a controller's work queues at the same place in the pool each
        // time, so under load it applies once per round of the others, never twice in a row then after two rounds
        // (a set's order changes from one set to the next).
        let order = ids.sorted()
        // Targets skipped under the lock are released after it: the last reference to a controller can be the one
        // taken here, and its deinit unregisters it, which takes the lock again.
        var skipped: [any RouteTarget] = []
        let targets = state.withLock { state -> [(any RouteTarget, RoutedChange)] in
            var targets: [(any RouteTarget, RoutedChange)] = []
            targets.reserveCapacity(order.count)
            for id in order {
                guard var entry = state.entries[id], let target = entry.target else { continue }
                var routed = item
                // A refetch that began or ended since the routes were copied may have replaced the plan and the
                // held keys that `concerns` was found with (a transition's new request can hold a row the old one
                // could not), or counted no keys while it ran: the route gets the whole change, not the keys
                // that concerned what it read before — whose fetch may not have seen this change.
                let copied = entry.refetchBoundary <= copiedAt
                if let plan = entry.plan, plan.isLocal {
                    let named = keys(in: plan.entityTable)
                    // A key-bounded route counts what it was handed while busy; a window (whose refill can bring
                    // in any row) is narrowed only when it was idle as its held keys were copied.
                    let narrowable = copied && (plan.isKeyBounded ? entry.isNarrowable : !busy.contains(id))
                    if let named, narrowable, reread[plan.entityTable] != nil {
                        // Only the keys it holds, may hold, or whose rows it matches: a change naming none of
                        // them cannot change its results. A batch job's 10,000 rows reach each controller as the
                        // few that concern it.
                        let concern = concerns[id] ?? []
                        guard !concern.isEmpty else {
                            skipped.append(target)
                            continue
                        }
                        if concern.count < named.count || change.tables.count > 1 || reread.count > 1 {
                            routed = item.narrowed(to: concern, in: plan.entityTable)
                        }
                        if plan.isKeyBounded { entry.handed(concern) }
                    } else if plan.isKeyBounded {
                        entry.handed(named)
                    }
                } else if let plan = entry.plan, plan.isKeyBounded {
                    entry.handed(keys(for: id, plan: plan))
                }
                entry.pending += 1
                state.entries[id] = entry
                state.busy.insert(id)
                targets.append((target, routed))
            }
            return targets
        }
        span.set("fetchkit.controllers", .int(targets.count))
        for (target, routed) in targets { target.receive(routed) }
        // The feed delivers again: the controllers return to `.live` once they applied what was handed out — and
        // before a `sync()` waiting for this change goes on.
        if change.delivery?.delivers == true { deliveryResumed(through: change.transactionID) }
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.routedThrough = max(state.routedThrough, change.transactionID)
            let through = state.routedThrough
            let ready = state.waiters.filter { $0.transactionID <= through }.map(\.continuation)
            state.waiters.removeAll { $0.transactionID <= through }
            return ready
        }
        for waiter in ready { waiter.resume() }
    }

    /// The most keys one re-read statement names.
    static let readChunk = 1_000

    /// Re-reads a table's changed rows once, following changed related rows to the rows pointing at them, and
    /// reads the rows changed to-many related rows point at (apart); one retry after a failure.
    private func read(_ spec: ReadSpec) async throws -> (RereadRows, [Value: Row]) {
        do {
            return try await readOnce(spec)
        } catch {
            try await Task.sleep(for: .milliseconds(20))
            return try await readOnce(spec)
        }
    }

    /// The rows the change's images give stand in for a re-read of their keys (unless the routes also need
    /// related columns, which images do not carry); the other keys are fetched.
    private func readOnce(_ spec: ReadSpec) async throws -> (RereadRows, [Value: Row]) {
        var keys = spec.keys
        var followed: [String: Set<String>] = [:]
        if !spec.follow.isEmpty {
            var alternatives: [FetchPredicate] = []
            for (table, foreignKeys, related) in spec.follow {
                followed[table] = foreignKeys
                for foreignKey in foreignKeys {
                    alternatives.append(.comparison(.init(.key(.init(foreignKey)), .in, .list(Array(related)))))
                }
            }
            let pointing = try await store.fetch(
                AnyFetchRequest(
                    entity: spec.entityName, predicate: .or(alternatives), propertiesToFetch: [spec.primaryKey]))
            for row in pointing { keys.insert(row[spec.primaryKey] ?? .null) }
        }
        var rows: [Value: Row] = [:]
        var unknown = keys
        for (_, referenced) in spec.referenced { unknown.formUnion(referenced) }
        if spec.relatedColumns.isEmpty {
            for (key, image) in spec.images where unknown.remove(key) != nil {
                if case .row(let row) = image { rows[key] = row }
            }
        }
        // In chunks: a batch job's 100,000 keys are a hundred bounded statements, not one unbounded one.
        let unread = Array(unknown)
        rows.reserveCapacity(rows.count + unread.count)
        for start in stride(from: 0, to: unread.count, by: Self.readChunk) {
            let chunk = Array(unread[start..<min(start + Self.readChunk, unread.count)])
            let fetched = try await store.fetch(
                AnyFetchRequest(
                    entity: spec.entityName, predicate: .comparison(.init(.object, .in, .list(chunk))),
                    sortDescriptors: spec.relatedColumns.sorted().map { .ascending($0) }))
            for row in fetched { rows[row[spec.primaryKey] ?? .null] = row }
        }
        // The rows changed children point at, unchanged themselves: kept apart from the changed rows.
        var parents: [Value: Row] = [:]
        for (_, referenced) in spec.referenced {
            for key in referenced { parents[key] = rows[key] }
        }
        for key in parents.keys where !keys.contains(key) { rows[key] = nil }
        return (RereadRows(keys: keys, rows: rows, relatedColumns: spec.relatedColumns, followed: followed), parents)
    }
}

extension ChangeRouter.State {
    /// The routes `change` goes to whatever the rows say, and what to re-read for the others.
    ///
    /// However many keys a table's change names, its rows are re-read and routed like one row's: only a change
    /// whose keys are unknown (a whole table) goes to every reader of the table.
    ///
    /// - Returns: the routes the change goes to whatever the rows say; what to read for each entity table; and
    ///   the routes among the first that read a to-many table whose changed rows' references are unknown.
    func dispatchPlan(
        for change: StoreChange, schema: Schema
    ) -> (direct: Set<Int>, reads: [String: ChangeRouter.ReadSpec], unnamed: Set<Int>) {
        if change.isResync { return (Set(entries.keys), [:], []) }
        var unnamed: Set<Int> = []
        var ids: Set<Int> = []
        for (table, tableChange) in change.tables {
            ids.formUnion(direct[table] ?? [])
            if tableChange.isWholeTable { ids.formUnion(readers[table] ?? []) }
        }
        var reads: [String: ChangeRouter.ReadSpec] = [:]
        for (table, routes) in entities {
            let own = change.tables[table]
            if own?.isWholeTable == true { continue }
            var spec: ChangeRouter.ReadSpec?
            func make() -> ChangeRouter.ReadSpec? {
                guard let entity = schema.entity(forTable: table) else { return nil }
                return ChangeRouter.ReadSpec(
                    entityName: entity.name, primaryKey: entity.primaryKey.name, keys: own?.allKeys ?? [],
                    images: own?.images ?? [:], follow: [], relatedColumns: Set(routes.relatedColumns.keys))
            }
            if own != nil { spec = make() }
            for (related, foreignKeys) in routes.foreignKeys {
                guard let relatedChange = change.tables[related] else { continue }
                if relatedChange.isWholeTable || !relatedChange.deleted.isEmpty {
                    // Deletions (and what foreign-key actions did) and unnamed rows: the readers refetch.
                    ids.formUnion(readers[related] ?? [])
                    continue
                }
                if spec == nil { spec = make() }
                spec?.follow.append((related, Set(foreignKeys.keys), relatedChange.allKeys))
            }
            for (child, byForeignKey) in routes.children {
                guard let childChange = change.tables[child] else { continue }
                for (foreignKey, routeIDs) in byForeignKey {
                    guard !childChange.isWholeTable, let values = childChange.references[foreignKey],
                        let keyType = schema.entity(forTable: table)?.primaryKey.type
                    else {
                        // The rows the changed children pointed at are unknown: the routes refetch.
                        ids.formUnion(routeIDs)
                        unnamed.formUnion(routeIDs)
                        continue
                    }
                    guard !values.isEmpty else { continue }
                    if spec == nil { spec = make() }
                    spec?.referenced.append((routeIDs, Set(values.map { keyType.coerce($0) ?? $0 })))
                }
            }
            guard let spec else { continue }
            reads[table] = spec
        }
        return (ids, reads, unnamed)
    }

}
