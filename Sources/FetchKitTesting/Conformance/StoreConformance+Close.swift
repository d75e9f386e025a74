import FetchKit
import Foundation

/// Closing a store ends everything that reads it: every controller reaches a terminal status, its delegate
/// hears `didFailWith`, its update sequences end by throwing ``FetchKitError/Code/closed``, and `sync()` returns —
/// so a server that closes its store on shutdown never waits behind a reader.
extension StoreConformance {
    static var closeChecks: [Check] {
        [
            Check(
                name: "close: every controller of a closed store stops; its readers, delegates and syncs end",
                body: { try await $0.checkCloseEndsControllers(on: $1) })
        ]
    }

    func checkCloseEndsControllers(on store: any PersistentStore) async throws {
        let request = FetchRequest<Row>(
            entity: "Todo", predicate: .key("done") == false, sortDescriptors: [.ascending("title"), .ascending("id")])
        // A leader and a follower of one shared request, a sectioned one, one with no fetch yet, one with a
        // request of its own, and a multi-request controller.
        let leader = try await ControllerHarness(store, request)
        let follower = try await ControllerHarness(store, request)
        let sectioned = try await ControllerHarness(
            store,
            FetchRequest(
                entity: "Todo", sortDescriptors: [.ascending("priority"), .ascending("id")],
                sectionNameKeyPath: "priority"))
        let unfetched = ResultsController(store: store, request: request)
        let multi = try MultiResultsController(store: store, requests: Self.multiRequests, initial: "open")
        let multiRecorder = MultiResultsRecorder<Row>()
        multi.delegate = multiRecorder
        try await multi.performFetch()
        let harnesses = [leader, follower, sectioned]
        try await leader.write { tx in
            try tx.insert(["id": 501, "title": "before close", "priority": 3, "done": false], into: "Todo")
        }
        for harness in harnesses {
            // The write synced the leader alone: the others may still be applying it.
            await harness.controller.sync()
            try await ResultsOracle.checkMatchesFreshFetch(harness.controller, in: store)
        }
        // Readers of every controller wait in `for try await`, as a server's socket handlers do.
        let readers = (harnesses.map(\.controller) + [unfetched]).map { controller in
            Task { () -> (any Error)? in
                do {
                    for try await _ in controller.updates() {}
                    return nil
                } catch {
                    return error
                }
            }
        }
        // Each reader has its stream before the store closes.
        try await Task.sleep(for: .milliseconds(20))
        await store.close()
        let deadline = ContinuousClock.now + .seconds(10)
        let controllers = harnesses.map(\.controller) + [unfetched]
        while ContinuousClock.now < deadline,
            !(controllers.allSatisfy { $0.status.isClosedFailure } && multi.status.isClosedFailure)
        {
            try await Task.sleep(for: .milliseconds(5))
        }
        for (index, controller) in controllers.enumerated() {
            try expect(
                controller.status.isClosedFailure, "controller \(index): status \(controller.status) after close")
        }
        try expect(multi.status.isClosedFailure, "the multi-request controller's status \(multi.status) after close")
        for (index, reader) in readers.enumerated() {
            let ended = await reader.value
            try expect(
                (ended as? FetchKitError)?.code == .closed,
                "reader \(index) ended with \(ended.map { "\($0)" } ?? "no error") rather than `closed`")
        }
        for (index, harness) in harnesses.enumerated() {
            let failures = harness.recorder.failures
            try expect(
                failures.map(\.code) == [.closed], "delegate \(index) heard \(failures) rather than one `closed`")
            try harness.recorder.checkCallbackOrder()
        }
        try expect(
            multiRecorder.failures.map(\.code) == [.closed],
            "the multi delegate heard \(multiRecorder.failures) rather than one `closed`")
        // `sync()` returns on a closed store's controllers, and a new reader ends at once.
        for controller in controllers { await controller.sync() }
        await multi.sync()
        do {
            for try await _ in leader.controller.updates() {}
            throw ConformanceFailure("a new update sequence of a closed store's controller ended without an error")
        } catch let error as FetchKitError {
            try expect(error.code == .closed, "a new update sequence threw \(error)")
        }
        // Starting again is refused with `closed`, and the status stays terminal.
        do {
            try await unfetched.performFetch()
            throw ConformanceFailure("performFetch on a closed store did not throw")
        } catch let error as FetchKitError {
            try expect(error.code == .closed, "performFetch on a closed store threw \(error)")
        }
        try expect(unfetched.status.isClosedFailure, "status \(unfetched.status) after a refused performFetch")
    }
}

extension ResultsStatus {
    /// Whether the controller stopped because its store closed.
    fileprivate var isClosedFailure: Bool {
        if case .failed(let error) = self { error.code == .closed } else { false }
    }
}
