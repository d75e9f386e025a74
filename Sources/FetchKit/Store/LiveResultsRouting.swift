import Logging
import Synchronization

/// The change routers a feed serves: one per store whose controllers follow the feed (``ChangeFeed/routing``).
///
/// A router is made with a store's first controller and shared by all of them, with its metrics: it subscribes
/// to the store's feed and re-reads through that store. A store that wraps another and returns its feed gets a
/// router of its own, since its controllers read through it. The router holds the store; the feed holds the
/// router only weakly, so neither keeps the other alive. The router goes, unsubscribing from the feed, when its
/// last controller goes, and when the feed ends (``PersistentStore/close()``); a controller made after that gets
/// a new one.
final class LiveResultsRouting: Sendable {
    private struct Slot {
        weak var router: ChangeRouter?
    }

    /// The routers by the identity of their store (alive while its router is: the router holds it).
    private let slots = Mutex([ObjectIdentifier: Slot]())

    /// The router of `store`, made when the store has none.
    static func router(of store: any PersistentStore) -> ChangeRouter {
        let feed = store.changeFeed
        assert(
            feed === store.changeFeed,
            "\(type(of: store)).changeFeed returns a new ChangeFeed each time: make one with the store, keep it")
        let key = ObjectIdentifier(store)
        return feed.routing.slots.withLock { slots in
            if let router = slots[key]?.router { return router }
            // Routers gone since (their store may have gone too): their slots go.
            slots = slots.filter { $0.value.router != nil }
            let router = ChangeRouter(store: store, logger: store.logger)
            slots[key] = Slot(router: router)
            return router
        }
    }

    /// Forgets `router` (the feed ended, or its last controller went), unless another has taken its place.
    func release(_ router: ChangeRouter) {
        slots.withLock { slots in
            let key = ObjectIdentifier(router.store)
            if slots[key]?.router === router { slots[key] = nil }
        }
    }

    /// The identity of `store`'s router while it has one, else `nil`: for checks that it goes.
    func routerID(of store: any PersistentStore) -> ObjectIdentifier? {
        slots.withLock { slots in slots[ObjectIdentifier(store)]?.router.map(ObjectIdentifier.init) }
    }
}

extension PersistentStore {
    /// The identity of the change router of this store's live controllers while it has one, else `nil`: for
    /// checks that it goes with them.
    package var liveRouterID: ObjectIdentifier? {
        changeFeed.routing.routerID(of: self)
    }
}
