import Synchronization

extension ResultsController {
    /// Holds the controller's queue, so that a test (in this package: the conformance suite, the tests) can place
    /// a commit between two of its steps (a user's
    /// drop and the move's processing, say): returns once everything queued before has run; nothing queued
    /// after runs until ``ProcessingHold/release()``.
    package func holdProcessing() async -> ProcessingHold {
        let hold = ProcessingHold(router: router, lastTransactionID: { [store] in store.lastTransactionID })
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
    private let lastTransactionID: @Sendable () -> UInt64

    init(router: ChangeRouter, lastTransactionID: @escaping @Sendable () -> UInt64) {
        self.router = router
        self.lastTransactionID = lastTransactionID
    }

    /// Waits until every change the store published so far has been queued behind the hold.
    package func waitForRoutedChanges() async {
        await router.waitRouted(through: lastTransactionID())
    }

    /// Lets the controller run what was queued behind the hold.
    package func release() {
        released.finish(.success(()))
    }
}
