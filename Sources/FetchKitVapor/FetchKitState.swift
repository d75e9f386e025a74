#if Vapor
    import FetchKit
    import FetchKitSession
    import Synchronization
    import Vapor

    /// What an application keeps for FetchKit: its store, its running sessions, and how long shutdown waits for
    /// them.
    final class FetchKitState: Sendable {
        enum Key: StorageKey, LockKey {
            typealias Value = FetchKitState
        }

        private struct Settings {
            var store: (any PersistentStore)?
            var shutdownGracePeriod: Duration = .seconds(10)
        }

        private let settings = Mutex(Settings())
        /// Every live results session of the application's routes.
        let sessions: LiveSessionGroup

        init(logger: Logger) {
            sessions = LiveSessionGroup(logger: logger)
        }

        var store: (any PersistentStore)? {
            get { settings.withLock { $0.store } }
            set { settings.withLock { $0.store = newValue } }
        }

        var shutdownGracePeriod: Duration {
            get { settings.withLock { $0.shutdownGracePeriod } }
            set { settings.withLock { $0.shutdownGracePeriod = newValue } }
        }
    }
#endif
