/// Moves a user made in a view of the results — the delegate's UI, or a reader of an update sequence — that
/// cannot race other writers: the view's results change at once, on the view's own executor, and the move
/// waits in the view (``PendingMoves``) until it is written, so that every batch the view receives meanwhile
/// starts from what it shows and leads to the results with the move applied — another writer's batch never
/// moves the dragged row back. The move's write follows through the controller's queue, resolved by identity
/// against the results as they are then.
extension ResultsController {
    /// Tells the controller that the delegate's UI has already moved a row — as `tableView(_:moveRowAt:to:)`
    /// reports a drop — and writes the move.
    ///
    /// Call it on the executor the delegate's callbacks run on (see ``setDelegate(_:isolation:)``), in the same
    /// turn as the UI's move: from a synchronous UI callback, start it with `Task.immediate`, which runs it up to
    /// its first suspension before returning. By then the move is installed: every batch the delegate receives
    /// afterwards starts from the UI with the row moved, whatever another writer commits before the move is
    /// written. It returns once the write is done and the delegate has received the batch that shows its
    /// outcome: usually nothing (the UI shows it already), the deletion of a section the move emptied, or — when
    /// the write failed, whose error it throws — the row moved back.
    ///
    /// ```swift
    /// // UITableViewDataSource, on the main actor, with controller.setDelegate(self, isolation: MainActor.shared)
    /// func tableView(_ tableView: UITableView, moveRowAt from: IndexPath, to: IndexPath) {
    ///     Task.immediate { try await controller.userMovedRow(from: RowPath(from), to: RowPath(to)) }
    /// }
    /// ```
    ///
    /// The request must be sorted as ``moveObject(from:to:)`` requires. `to` counts rows without the dragged
    /// row in its old place, as a table view does.
    nonisolated(nonsending) public func userMovedRow(from: RowPath, to: RowPath) async throws {
        try await userMoved(.paths(from: from, to: to))?.outcome()
    }

    /// Tells the controller that the delegate's UI has already moved the row with primary key `key` to
    /// `destination`, and writes the move: as ``userMovedRow(from:to:)``, with both ends named by identity.
    nonisolated(nonsending) public func userMovedRow(withKey key: Value, to destination: MoveDestination)
        async throws
    {
        try await userMoved(.key(key, destination))?.outcome()
    }

    /// Moves the row in what the delegate shows, then queues the write; `nil` when there is nothing to move.
    private func userMoved(_ target: MoveTarget) throws -> QueuedMove? {
        while true {
            let (base, request) = state.withLock { ($0.machine.delegateView, $0.request) }
            let (from, to) = try resolve(target, in: base)
            guard let plan = try planMove(from: from, to: to, in: base, request: request) else { return nil }
            // Installed only if the delegate's results did not change meanwhile (a batch the controller
            // delivered on another executor): else the machine says to plan again from them.
            let effects = state.withLock { state in
                decide(
                    .userMoved(base: base, shown: plan.shown, key: plan.key, destination: plan.destination),
                    in: &state)
            }
            perform(effects)
            guard let (id, key, destination) = effects.moveToWrite else { continue }
            let completion = MoveCompletion()
            let settle: @Sendable () -> Void = { [weak self] in self?.send(.moveSettled(id: id)) }
            enqueue(.viewMove(.key(key, destination), settle: settle, done: completion.finish))
            return QueuedMove(completion: completion, reader: nil)
        }
    }

    /// A move in the view of an update sequence's reader (see ``ResultsStream/userMovedRow(from:to:)`` and
    /// ``ResultsStream/moveRow(withKey:to:)``): `alreadyShown` when the reader's UI moved the row itself;
    /// `nil` when there is nothing to move.
    func viewMove(_ target: MoveTarget, in buffer: UpdateBuffer<Object>, alreadyShown: Bool) throws -> QueuedMove? {
        let request = state.withLock { $0.request }
        let installed = try buffer.applyMove(alreadyShown: alreadyShown) { base in
            let (from, to) = try resolve(target, in: base)
            return try planMove(from: from, to: to, in: base, request: request).map {
                (shown: $0.shown, key: $0.key, destination: $0.destination)
            }
        }
        guard let (id, key, destination) = installed else { return nil }
        let completion = MoveCompletion()
        let settle: @Sendable () -> Void = { [weak buffer] in buffer?.settleMove(id) }
        enqueue(.viewMove(.key(key, destination), settle: settle, done: completion.finish))
        // The reader has finished with the batch that shows the outcome before the move returns.
        return QueuedMove(completion: completion) { await buffer.waitProcessed(through: buffer.pushCount) }
    }

    /// Runs a view's move on the controller's task: resolves it against the results as they are now, writes
    /// it, forgets it in the view that made it (`settle`), and brings every view a step off the results back
    /// to them — with nothing to do when the write went as the view showed it.
    func performViewMove(_ target: MoveTarget, settle: @Sendable () -> Void) async -> Result<Void, any Error> {
        var result: Result<Void, any Error> = .success(())
        do {
            let (from, to) = try resolve(target)
            // The delegate's UI shows the move only when it made it (then what it shows is already moved).
            try await performMove(from: from, to: to, delegateShowsMove: false)
        } catch {
            result = .failure(error)
        }
        settle()
        let current = state.withLock { $0.snapshot }
        await publish(current, previous: current, changeset: nil, transactionID: nil, origin: .local, reconcile: true)?
            .perform()
        return result
    }
}
