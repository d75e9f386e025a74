#if Vapor
    import FetchKit
    import FetchKitSession
    import Vapor

    extension RoutesBuilder {
        /// Serves a live list at `path`: each WebSocket connection is one ``LiveResultsSession`` — the session's
        /// request, narrowed by the signed-in user's `scope` and by the client's allowed filter and sort.
        ///
        /// ```swift
        /// let todos = LiveResultsSession(store: store, request: FetchRequest<Todo>(), policy: policy)
        /// app.grouped(UserAuthenticator()).liveResults("todos", session: todos) { req in
        ///     .key("ownerID") == (try req.auth.require(User.self)).id
        /// }
        /// ```
        ///
        /// On a group, the group's middleware runs before the upgrade: an authenticator's user is in `req.auth`,
        /// and a guard's error answers the HTTP request instead. `scope` runs once per connection, after the
        /// upgrade. When it throws, the client receives `refused` (the message of a `SessionError` it throws; a
        /// fixed `forbidden` one for any other error, an `Abort` too) and the socket closes with 1008.
        ///
        /// The application tracks its sessions (in its own ``LiveSessionGroup``, whatever the session's
        /// `sessions`): on `asyncShutdown()` each closes with 1001 (its client reconnects,
        /// and resumes in the next process when the `ResumeStore` is saved after `asyncShutdown()`; on another
        /// instance it gets `reset`) before the store given to `app.fetchKit.use(_:)` closes. A client message may
        /// be at most `ClientMessage.maximumLength` bytes, and a client that sends 64 messages the session has not
        /// read yet is closed with 1008.
        @discardableResult
        public func liveResults<Object: Sendable, Projected: Encodable & Sendable>(
            _ path: PathComponent..., session: LiveResultsSession<Object, Projected>,
            scope: @escaping @Sendable (Request) async throws -> FetchPredicate?
        ) -> Route {
            serveLiveResults(path, session: session, scope: scope)
        }

        /// Serves a live list of `request`'s records at `path`, sent whole to each client (see
        /// ``liveResults(_:session:scope:)``).
        ///
        /// ```swift
        /// app.fetchKit.use(store)
        /// let todos = try FetchRequest<Todo>(sortBy: [SortDescriptor(\.title)])
        /// app.grouped(UserAuthenticator()).liveResults("todos", store: store, request: todos) { req in
        ///     .key("ownerID") == (try req.auth.require(User.self)).id
        /// }
        /// ```
        @discardableResult
        public func liveResults<Object: Record & Encodable>(
            _ path: PathComponent..., store: any PersistentStore, request: FetchRequest<Object>,
            policy: ClientQueryPolicy = .init(), resume: ResumeStore<Object>? = ResumeStore(),
            scope: @escaping @Sendable (Request) async throws -> FetchPredicate?
        ) -> Route {
            let session = LiveResultsSession(store: store, request: request, policy: policy, resume: resume)
            return serveLiveResults(path, session: session, scope: scope)
        }

        /// Each connection at `path` runs `session` for its request's scope, tracked by the application.
        private func serveLiveResults<Object: Sendable, Projected: Encodable & Sendable>(
            _ path: [PathComponent], session: LiveResultsSession<Object, Projected>,
            scope: @escaping @Sendable (Request) async throws -> FetchPredicate?
        ) -> Route {
            // Vapor's upgrade closure of the two that runs on the socket's event loop (chosen by `shouldUpgrade`'s
            // type): the reader is in place before the client's first message.
            webSocket(
                path, maxFrameSize: WebSocketMaxFrameSize(integerLiteral: ClientMessage.maximumLength),
                shouldUpgrade: { $0.eventLoop.makeSucceededFuture([:]) },
                onUpgrade: { req, ws in
                    let socket = VaporSocket(ws, logger: req.logger)
                    // The application's group, whatever the session was given: its shutdown closes them all.
                    var session = session
                    session.sessions = req.application.fetchKit.state.sessions
                    Task {
                        await session.run(
                            scope: { try await scope(req) }, inbound: socket.messages, transport: socket)
                    }
                })
        }
    }
#endif
