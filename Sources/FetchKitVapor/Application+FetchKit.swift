#if Vapor
    import FetchKit
    import Vapor

    extension Application {
        /// FetchKit in this application: its store, and the live results sessions its routes serve.
        ///
        /// ```swift
        /// let app = try await Application.make(env)
        /// app.fetchKit.use(try await SQLiteStore.open(path: "app.sqlite", schema: schema))
        /// let todos = try FetchRequest<Todo>(sortBy: [SortDescriptor(\.title)])
        /// app.grouped(UserAuthenticator()).liveResults("todos", store: app.fetchKit.store, request: todos) { req in
        ///     .key("ownerID") == (try req.auth.require(User.self)).id
        /// }
        /// try await app.execute()
        /// try await app.asyncShutdown()  // each session closes with 1001, then the store closes
        /// ```
        public var fetchKit: FetchKit { FetchKit(application: self) }

        /// FetchKit in an application (`app.fetchKit`): its store, and its live results sessions' shutdown.
        ///
        /// ```swift
        /// app.fetchKit.use(store)
        /// app.fetchKit.shutdownGracePeriod = .seconds(5)
        /// ```
        ///
        /// On `asyncShutdown()` the application first closes every live results session — each closes its socket
        /// with 1001, and its client reconnects (resuming in the next process when the resume store is saved after
        /// the shutdown; on another instance it gets `reset`) — waits for them (at most ``shutdownGracePeriod``),
        /// then closes the store given to ``use(_:)``. The synchronous `shutdown()` does the same in the
        /// background, without waiting.
        public struct FetchKit: Sendable {
            let application: Application

            /// Makes `store` the application's (``store``, and `req.fetchKit.store` in a route), closed on shutdown
            /// after the live results sessions.
            ///
            /// ```swift
            /// app.fetchKit.use(try await SQLiteStore.open(path: "app.sqlite", schema: schema))
            /// ```
            public func use(_ store: any PersistentStore) {
                state.store = store
            }

            /// The store given to ``use(_:)``. Reading it before is a programming error, and stops the process.
            ///
            /// ```swift
            /// let todos = try await app.fetchKit.store.fetch(FetchRequest<Todo>(), as: Todo.self)
            /// ```
            public var store: any PersistentStore {
                guard let store = state.store else {
                    fatalError("No FetchKit store: call app.fetchKit.use(store) when configuring the application.")
                }
                return store
            }

            /// How long shutdown waits for the live results sessions to close before it closes the store anyway
            /// (a client that reads nothing can hold its socket's close); 10 seconds unless set.
            ///
            /// ```swift
            /// app.fetchKit.shutdownGracePeriod = .seconds(3)
            /// ```
            public var shutdownGracePeriod: Duration {
                get { state.shutdownGracePeriod }
                nonmutating set { state.shutdownGracePeriod = newValue }
            }

            /// How many live results sessions run now, on every route.
            ///
            /// ```swift
            /// app.logger.info("live sessions", metadata: ["count": "\(app.fetchKit.liveSessionCount)"])
            /// ```
            public var liveSessionCount: Int { state.sessions.count }

            /// The application's FetchKit state, made (and its shutdown registered) the first time it is asked for:
            /// by ``use(_:)`` when the application is configured, or by the first session of an application that
            /// never gave a store.
            var state: FetchKitState {
                application.locks.lock(for: FetchKitState.Key.self).withLock {
                    if let state = application.storage[FetchKitState.Key.self] { return state }
                    let state = FetchKitState(logger: application.logger)
                    application.storage[FetchKitState.Key.self] = state
                    application.lifecycle.use(FetchKitShutdown(state: state))
                    return state
                }
            }
        }
    }
#endif
