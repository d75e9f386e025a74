import Logging
import Synchronization

/// Where a store keeps the change router its live controllers share: what a store holds for live results.
///
/// A store makes one when it is made, keeps it as a `let`, and returns it from
/// ``PersistentStore/liveResultsRouting`` — the same one every time, and never another store's (a store that
/// wraps another has its own, since its controllers read through it):
///
/// ```swift
/// final class MyStore: PersistentStore {
///     let liveResultsRouting = LiveResultsRouting()
///     // …
/// }
/// ```
///
/// The router is made with the store's first controller and shared by all of them, with its metrics: the
/// only subscriber to the store's change feed. The router holds the store; the store holds the router only
/// weakly, through this, so neither keeps the other alive. The router goes, unsubscribing from the feed,
/// when its last controller goes, and when the store's feed ends (``PersistentStore/close()``); a
/// controller made after that gets a new one.
public final class LiveResultsRouting: Sendable {
    private struct Slot {
        weak var router: ChangeRouter?
    }

    private let slot = Mutex(Slot())

    /// An empty slot: no router until the store's first controller.
    public init() {}

    /// The router of `store`, made when the store has none.
    static func router(of store: any PersistentStore, logger: Logger) -> ChangeRouter {
        let routing = store.liveResultsRouting
        assert(
            routing === store.liveResultsRouting,
            "\(type(of: store)).liveResultsRouting returns a new LiveResultsRouting each time: keep one as a let")
        return routing.slot.withLock { slot in
            if let router = slot.router { return router }
            let router = ChangeRouter(store: store, logger: logger)
            slot.router = router
            return router
        }
    }

    /// Forgets `router` (the store's feed ended), unless another has taken its place.
    func release(_ router: ChangeRouter) {
        slot.withLock { slot in
            if slot.router === router { slot.router = nil }
        }
    }

    /// The identity of the store's router while it has one, else `nil`: for checks that it goes.
    package var routerID: ObjectIdentifier? {
        slot.withLock { slot in slot.router.map(ObjectIdentifier.init) }
    }
}
