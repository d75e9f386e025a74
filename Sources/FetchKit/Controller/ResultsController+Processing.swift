extension ResultsController {
    /// Runs one command; called only from the controller's task, so commands never overlap.
    func handle(_ command: ControllerCommand) async {
        switch command {
        case .performFetch(let continuation):
            guard !continuation.skipIfCancelled() else { return }
            let request = state.withLock { $0.request }
            await fetchCommand(request, continuation)
        case .setRequest(let request, let continuation):
            guard !continuation.skipIfCancelled() else { return }
            await fetchCommand(request, continuation)
        case .moveObject(let target, let continuation):
            guard !continuation.skipIfCancelled() else { return }
            do {
                let (from, to) = try resolve(target)
                try await performMove(from: from, to: to)
                continuation.resume()
            } catch {
                continuation.resume(throwing: error)
            }
        case .hold(let started, let released):
            started.resume()
            _ = await released.result
        case .viewMove(let target, let settle, let done):
            done(await performViewMove(target, settle: settle))
        case .routed(let routed):
            // A child of the route span that handed the change over (``FetchKitTracing``).
            let delta = await FetchKitTracing.span(
                "fetchkit.apply", parent: routed.trace,
                attributes: router.traceAttributes + [
                    ("fetchkit.controller", .string("\(routeID)")),
                    ("fetchkit.entity", .string(state.withLock { $0.request.entityName })),
                    ("fetchkit.transaction.id", .int(Int(truncatingIfNeeded: routed.change.transactionID))),
                    ("fetchkit.changes", .int(routed.covers))
                ]
            ) { _ in await apply(routed) }
            // Applied, whether it needed a batch or not (a stale controller has applied nothing).
            send(.applied(through: routed.change.transactionID))
            router.finish(routeID, entered: delta.entered, left: delta.left, count: routed.covers)
        case .catchUp(let count, let through, _):
            await catchUp(through: through)
            send(.applied(through: through))
            router.finish(routeID, entered: [], left: [], count: count)
        case .fail(let error):
            if !hasFailed { fail(with: error) }
        case .feedResumed(let id):
            send(.feedResumed(id: id))
        case .barrier(let continuation):
            // Everything routed before the barrier is applied: the status may say so at once.
            updateLagStatus(unroutedSince: router.inbox.oldestUnrouted, at: .now)
            // A stale controller holds the caller until it has caught up.
            let effects = state.withLock { decide(.syncRequested(SyncWaiter(continuation)), in: &$0) }
            effects.resumedSync?.resume()
        case .retry:
            await retryRefresh()
        case .adopt(let update, let version, let group, let since):
            await adopt(ResultsBatch(erased: update), version: version, from: group, since: since)?.perform()
        case .promote:
            await takeOver()
        }
    }

    /// Runs ``performFetch()`` or ``setRequest(_:)``: the status is ``ResultsStatus/fetching`` meanwhile, then
    /// ``ResultsStatus/live`` — or, when the fetch throws, what it was before.
    private func fetchCommand(_ request: AnyFetchRequest, _ continuation: ControllerRequest) async {
        send(.fetchStarted)
        do {
            // Joining shared results reads no store: a closed one must refuse here.
            if router.feedHasEnded { throw FetchKitError.closed }
            try await fetchOrJoin(request)
            // A fetch that worked catches a stale controller up.
            send(.fetchSucceeded)
            continuation.resume()
        } catch {
            send(.fetchFailed)
            continuation.resume(throwing: error)
        }
    }

    /// Applies a collapsed backlog of store changes with one refetch: one batch from what the delegate last
    /// received to the current results.
    private func catchUp(through: UInt64) async {
        let (request, isActive) = state.withLock { state in
            (
                state.request,
                state.hasFetched && !state.isStale && !state.status.isFailed
                    && !state.sharing.isFollower
            )
        }
        guard isActive else { return }
        do {
            try await refresh(to: request, transactionID: through)
            send(.counted(.fullRefresh))
            router.metrics.refetchedChanges.increment()
            router.metrics.backlogResyncs.increment()
        } catch {
            handleFailure(error)
        }
    }

    /// Fetches `request` and moves the controller to its results, emitting the batch between the old
    /// results and the new ones. Nothing changes when it throws.
    func refresh(to request: AnyFetchRequest, transactionID: UInt64?) async throws {
        let schema = store.schema
        let fetchStart = router.beginRefresh(routeID)
        var replacement: ChangeRouter.PlanReplacement?
        defer { router.endRefresh(routeID, replacing: replacement) }
        let entity = try schema.entity(named: request.entityName)
        // Refetching the same request (a resync, a change it cannot localise) keeps its plan: only a new request
        // needs one made.
        let kept = state.withLock { $0.request == request ? $0.plan : nil }
        let plan = try kept ?? RoutePlan(request: request, schema: schema, dialect: store.dialect, incremental: true)
        // The plan's set of tables, not one more of the same (each is a hash table of its own).
        let tables = plan.tables
        let relatedForeignKeys = try request.localizableRelatedTables(in: schema)
        let childForeignKeys = try request.localizableChildTables(in: schema)
        let effective = request.sectionOrdered
        let rows = try await store.fetch(effective)
        let objects = try materializer.make(rows)
        let snapshot = ResultsSnapshot(
            rows: rows, objects: objects, primaryKey: entity.primaryKey.name, sectionKey: request.sectionNameKeyPath,
            order: Self.incrementalOrder(for: request, in: schema))
        if let key = request.sectionNameKeyPath, let repeated = snapshot.sectionNames.repeatedSectionName {
            // The order does not keep a section's rows together (a case-insensitive sort on the section key
            // with values differing only in case, say): the sections cannot be shown.
            throw FetchKitError.sectionOrder(key: key, section: repeated)
        }
        let (previous, hasFetched, previousPlan, previousRequest) = state.withLock {
            ($0.snapshot, $0.hasFetched, $0.plan, $0.request)
        }
        let changeset = hasFetched ? try ResultsDiff.changeset(from: previous, to: snapshot) : nil
        let layout = RowLayout.interned(names: try Self.columns(of: effective, entity: entity, schema: schema))
        let shape = RequestShape(
            tables: tables, primaryKeyName: entity.primaryKey.name, primaryKeyType: entity.primaryKey.type,
            entityTable: entity.table, relatedForeignKeys: relatedForeignKeys, childForeignKeys: childForeignKeys,
            rowLayout: layout)
        // Changes routed from here on were re-read after this fetch; those routed during it maybe not.
        await publish(
            snapshot, previous: previous, changeset: changeset, transactionID: transactionID,
            events: [
                .requestInstalled(InstalledRequest(request: request, shape: shape, plan: plan)),
                .fetchInstalled(fetchStart: fetchStart, routedThrough: router.routedThrough)
            ])?.perform()
        if let changeset, previousPlan != nil, previousRequest == request {
            // The same request refetched: the plan stays, and the keys the router holds for it change only by
            // what the batch inserts and deletes.
            let delta = Self.membershipDelta(changeset, from: previous, to: snapshot)
            replacement = ChangeRouter.PlanReplacement(
                plan: plan, oldKeys: delta.left, newKeys: delta.entered, keepsPlan: true)
        } else {
            replacement = ChangeRouter.PlanReplacement(plan: plan, oldKeys: previous.keys, newKeys: snapshot.keys)
        }
    }

    /// The keys a batch takes out of the results and brings in (moves and updates keep their rows).
    ///
    /// - Complexity: O(c) for the c rows the batch inserts and deletes.
    static func membershipDelta(
        _ changeset: Changeset, from previous: ResultsSnapshot<Object>, to snapshot: ResultsSnapshot<Object>
    ) -> MembershipDelta {
        func key(_ snapshot: ResultsSnapshot<Object>, _ flat: Int) -> Value {
            snapshot.entries[flat].row[snapshot.primaryKey] ?? .null
        }
        var delta = MembershipDelta()
        for path in changeset.rowDeletes {
            delta.left.append(key(previous, previous.sectionStarts[path.section] + path.row))
        }
        for section in changeset.sectionDeletes {
            for flat in previous.sectionRange(section) { delta.left.append(key(previous, flat)) }
        }
        for path in changeset.rowInserts {
            delta.entered.append(key(snapshot, snapshot.sectionStarts[path.section] + path.row))
        }
        for section in changeset.sectionInserts {
            for flat in snapshot.sectionRange(section) { delta.entered.append(key(snapshot, flat)) }
        }
        // A row that moved between a deleted and an inserted section is in both lists: it stays held.
        let both = Set(delta.left).intersection(delta.entered)
        if !both.isEmpty {
            delta.left.removeAll { both.contains($0) }
            delta.entered.removeAll { both.contains($0) }
        }
        return delta
    }

    /// The columns a fetch of `request` returns, in order (as the backend kit's `SQLCompiler.fetch(_:)` selects them).
    static func columns(of request: AnyFetchRequest, entity: Entity, schema: Schema) throws -> [String] {
        var names: [String] = []
        var seen: Set<String> = []
        func add(_ name: String) { if seen.insert(name).inserted { names.append(name) } }
        add(entity.primaryKey.name)
        for name in request.propertiesToFetch ?? entity.attributes.map(\.name) { add(name) }
        for descriptor in request.sortDescriptors { add(descriptor.key) }
        if let section = request.sectionNameKeyPath { add(section) }
        for keyPath in try request.prefetchedKeyPaths(of: entity, in: schema) { add(keyPath) }
        return names
    }
}
