import Synchronization

extension MultiResultsController {
    /// The multi-controller's delegate, held weakly.
    struct WeakDelegate: Sendable {
        weak var value: (any ResultsControllerDelegate<MultiResultsController<Object>>)?
    }

    /// The multi-controller, held weakly by its forwarder (the multi-controller owns the forwarder).
    struct WeakOwner: Sendable {
        weak var value: MultiResultsController<Object>?
    }

    /// The results controller's delegate: replays each whole batch to the multi-controller's delegate, in
    /// contract order, with the multi-controller as the sender.
    final class Forwarder: ResultsControllerDelegate, Sendable {
        let owner = Mutex(WeakOwner())

        func controller(_ controller: ResultsController<Object>, didApply update: ResultsBatch<Object>) {
            guard let multi = owner.withLock({ $0.value }), let delegate = multi.delegate else { return }
            update.forEachCallback { delegate.receive($0, from: multi) }
        }

        func controller(_ controller: ResultsController<Object>, didFailWith error: FetchKitError) {
            guard let multi = owner.withLock({ $0.value }), let delegate = multi.delegate else { return }
            delegate.controller(multi, didFailWith: error)
        }
    }
}
