import FetchKit

extension ResultsOracle {
    /// Waits until `controller` holds what a fresh fetch returns, then checks every batch `recorder` heard:
    /// callbacks in contract order, each batch valid under ``ListSimulator``; and forgets them.
    ///
    /// For changes made elsewhere (another app instance, psql), which reach the controller after some delay:
    ///
    /// ```swift
    /// try await otherStore.write { tx in … }
    /// let batches = try await ResultsOracle.converge(controller, recorder, in: store)
    /// ```
    ///
    /// - Returns: How many batches were checked.
    /// - Throws: The last difference from a fresh fetch when the controller has not caught up within
    ///   `timeout`, or the first batch that breaks the contract.
    @discardableResult
    public static func converge(
        _ controller: ResultsController<Row>, _ recorder: ResultsRecorder<Row>, in store: any PersistentStore,
        within timeout: Duration = .seconds(10), primaryKey: String = "id"
    ) async throws -> Int {
        let deadline = ContinuousClock.now + timeout
        while true {
            do {
                try await checkMatchesFreshFetch(controller, in: store)
                break
            } catch {
                guard ContinuousClock.now < deadline else {
                    throw OracleFailure(
                        "after \(timeout) (status \(controller.status), \(controller.statistics)): \(error)")
                }
                try await Task.sleep(for: .milliseconds(10))
            }
        }
        // The controller's content changes before its delegate has heard the whole batch: wait for the end.
        await controller.sync()
        while let last = recorder.events.last, !last.isBatchEnd, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        try recorder.checkCallbackOrder()
        let updates = recorder.updates
        for update in updates { try check(update, primaryKey: primaryKey) }
        recorder.reset()
        return updates.count
    }
}

extension BatchRecorder.Event {
    /// Whether this event ends a batch (the whole-batch callback comes last).
    var isBatchEnd: Bool {
        if case .didApply = self { return true }
        return false
    }
}
