
extension ResultsController {
    /// Runs one command; called only from the controller's task, so commands never overlap.
    func handle(_ command: Command) async {
        switch command {
        case .performFetch(let continuation):
            let request = state.withLock { $0.request }
            do {
                try await refresh(to: request, transactionID: nil)
                continuation.resume()
            } catch {
                continuation.resume(throwing: error)
            }
        case .setRequest(let request, let continuation):
            do {
                try await refresh(to: request, transactionID: nil)
                continuation.resume()
            } catch {
                continuation.resume(throwing: error)
            }
        case .moveObject(let target, let continuation):
            do {
                let (from, to) = try resolve(target)
                try await performMove(from: from, to: to)
                continuation.resume()
            } catch {
                continuation.resume(throwing: error)
            }
        case .storeChange(let change):
            defer { markProcessed(change.transactionID) }
            let (request, isRelevant) = state.withLock { state in
                (state.request, state.hasFetched && (change.isResync || change.tables.keys.contains(where: state.tables.contains)))
            }
            guard isRelevant else { return }
            do {
                if try await applyIncrementally(change) { return }
            } catch {
                logger.debug("incremental update failed, refetching", metadata: ["error": "\(error)"])
            }
            do {
                try await refresh(to: request, transactionID: change.transactionID)
                state.withLock { $0.fullRefreshes += 1 }
            } catch {
                // The results stay as they were; the next change (or a resync) refetches again.
                logger.info("results refresh failed", metadata: ["error": "\(error)", "entity": "\(request.entityName)"])
            }
        }
    }

    /// Records that `transactionID` has been applied and releases the `sync()` callers waiting for it.
    private func markProcessed(_ transactionID: UInt64) {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.processedTransactionID = max(state.processedTransactionID, transactionID)
            let processed = state.processedTransactionID
            let ready = state.syncWaiters.filter { $0.transactionID <= processed }.map(\.continuation)
            state.syncWaiters.removeAll { $0.transactionID <= processed }
            return ready
        }
        for continuation in ready { continuation.resume() }
    }

    /// Fetches `request` and moves the controller to its results, emitting the batch between the old
    /// results and the new ones. Nothing changes when it throws.
    func refresh(to request: FetchRequest, transactionID: UInt64?) async throws {
        let schema = store.schema
        let entity = try schema.entity(named: request.entityName)
        let tables = try request.tablesRead(in: schema)
        let relatedForeignKeys = try request.localizableRelatedTables(in: schema)
        let effective = request.sectionOrdered
        let rows = try await store.fetch(effective)
        let objects = try materializer.make(rows)
        let snapshot = ResultsSnapshot(
            rows: rows, objects: objects, primaryKey: entity.primaryKey.name, sectionKey: request.sectionNameKeyPath,
            order: Self.incrementalOrder(for: request, in: schema))
        let (previous, hasFetched) = state.withLock { ($0.snapshot, $0.hasFetched) }
        let changeset = hasFetched ? try ResultsDiff.changeset(from: previous, to: snapshot) : nil
        publish(snapshot, previous: previous, changeset: changeset, transactionID: transactionID) { state in
            state.request = request
            state.tables = tables
            state.primaryKeyName = entity.primaryKey.name
            state.entityTable = entity.table
            state.relatedForeignKeys = relatedForeignKeys
        }
    }

    /// Moves the controller to `snapshot` (with `update` changing the rest of the state under the same lock),
    /// then sends the batch to the delegate and the subscribers.
    func publish(
        _ snapshot: ResultsSnapshot<Object>, previous: ResultsSnapshot<Object>, changeset: Changeset?,
        transactionID: UInt64?, update: (inout State) -> Void
    ) {
        let (delegate, subscribers, awaiting) = state.withLock { state in
            update(&state)
            state.snapshot = snapshot
            state.hasFetched = true
            let awaiting = state.awaitingInitial
            state.awaitingInitial = []
            return (state.delegate, state.subscribers, awaiting)
        }
        for id in awaiting {
            subscribers[id]?.yield(ResultsUpdate(previous: snapshot, snapshot: snapshot, changeset: nil, transactionID: nil))
        }
        guard let changeset, !changeset.isEmpty else { return }
        let update = ResultsUpdate(previous: previous, snapshot: snapshot, changeset: changeset, transactionID: transactionID)
        if let delegate { notify(delegate, of: update) }
        for (id, subscriber) in subscribers where !awaiting.contains(id) { subscriber.yield(update) }
    }

    /// Calls the delegate's methods for one batch, in contract order.
    private func notify(_ delegate: any ResultsControllerDelegate<Object>, of update: ResultsUpdate<Object>) {
        update.forEachCallback { callback in
            switch callback {
            case .willChange: delegate.controllerWillChangeContent(self)
            case .section(let section, let old, let type, let new):
                delegate.controller(self, didChange: section, atSectionIndex: old, for: type, newSectionIndex: new)
            case .row(let object, let old, let type, let new):
                delegate.controller(self, didChange: object, at: old, for: type, newRowPath: new)
            case .didChange: delegate.controllerDidChangeContent(self)
            case .didApply(let update): delegate.controller(self, didApply: update)
            }
        }
    }
}
