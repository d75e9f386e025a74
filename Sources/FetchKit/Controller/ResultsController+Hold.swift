import Synchronization

extension ResultsController {
    /// Holds the controller's queue, so that a test (in this package: the conformance suite, the tests) can place
    /// a commit between two of its steps (a user's
    /// drop and the move's processing, say): returns once everything queued before has run; nothing queued
    /// after runs until ``ProcessingHold/release()``.
    package func holdProcessing() async -> ProcessingHold {
        let hold = ProcessingHold(router: router, store: store)
        await withCheckedContinuation { (started: CheckedContinuation<Void, Never>) in
            enqueue(.hold(started: started, released: hold.released))
        }
        return hold
    }
}

/// A held controller queue (see ``ResultsController/holdProcessing()``).
package final class ProcessingHold: Sendable {
    let released = MoveCompletion()
    private let router: ChangeRouter
    private let store: any PersistentStore

    init(router: ChangeRouter, store: any PersistentStore) {
        self.router = router
        self.store = store
    }

    /// Waits until the change of every write returned so far has been queued behind the hold.
    package func waitForRoutedChanges() async {
        await store.waitForPublication()
        await router.waitRouted(through: store.lastTransactionID)
    }

    /// Lets the controller run what was queued behind the hold.
    package func release() {
        released.finish(.success(()))
    }
}
