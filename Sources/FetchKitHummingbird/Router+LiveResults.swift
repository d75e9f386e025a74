#if Hummingbird
    import FetchKit
    import FetchKitSession
    import Hummingbird
    import HummingbirdWebSocket
    import ServiceLifecycle

    extension RouterMethods where Context: WebSocketRequestContext {
        /// Serves a live list at `path`: each WebSocket connection is one ``LiveResultsSession`` — the session's
        /// request, narrowed by the signed-in user's `scope` and by the client's allowed filter and sort.
        ///
        /// ```swift
        /// let router = Router(context: AppRequestContext.self)
        /// router.liveResults("/todos", todos) { request, context in
        ///     guard let user = context.identity else { throw SessionError(.forbidden, "sign in first") }
        ///     return .key("ownerID") == user.id
        /// }
        /// ```
        ///
        /// `scope` runs once per connection, after the upgrade, with the request and the context the router's
        /// middleware made (its identity, say). When it throws, the client receives `refused` (the message of a
        /// ``SessionError`` it throws; "not allowed" for any other error) and the socket closes with 1008. On the
        /// application's graceful shutdown each session closes with 1001 and its client reconnects: it resumes in
        /// the next process when the session's `ResumeStore` has an archive saved after the shutdown
        /// (`ResumeStore.save()`); on another instance it gets `reset` and the whole list.
        @discardableResult
        public func liveResults<Object: Sendable, Projected: Encodable & Sendable>(
            _ path: RouterPath, _ session: LiveResultsSession<Object, Projected>,
            scope: @escaping @Sendable (Request, Context) async throws -> FetchPredicate?
        ) -> Self where Self: _HB_SendableMetatype {
            ws(path) { inbound, outbound, context in
                let messages = inbound.messages(maxSize: ClientMessage.maximumLength).compactMap {
                    message -> String? in
                    if case .text(let text) = message { text } else { nil }
                }
                await cancelWhenGracefulShutdown {
                    await session.run(
                        scope: { try await scope(context.request, context.requestContext) }, inbound: messages,
                        transport: HummingbirdSocket(outbound: outbound))
                }
            }
        }

        /// Serves a live list of `request`'s records at `path`, sent whole to each client (see
        /// ``liveResults(_:_:scope:)``).
        ///
        /// ```swift
        /// router.liveResults("/todos", store: store, request: FetchRequest<Todo>(sortBy: [SortDescriptor(\.title)])) {
        ///     request, context in .key("ownerID") == try context.userID()
        /// }
        /// ```
        @discardableResult
        public func liveResults<Object: Record & Encodable>(
            _ path: RouterPath, store: any PersistentStore, request: FetchRequest<Object>,
            policy: ClientQueryPolicy = .init(), resume: ResumeStore<Object>? = ResumeStore(),
            scope: @escaping @Sendable (Request, Context) async throws -> FetchPredicate?
        ) -> Self where Self: _HB_SendableMetatype {
            liveResults(
                path, LiveResultsSession(store: store, request: request, policy: policy, resume: resume), scope: scope)
        }
    }

    /// A Hummingbird WebSocket as a session's transport.
    struct HummingbirdSocket: SessionTransport {
        let outbound: WebSocketOutboundWriter

        func send(_ text: String) async throws {
            try await outbound.write(.text(text))
        }

        func close(_ code: SessionCloseCode, reason: String) async {
            // Throws only when the socket is already closed: then there is nothing left to close.
            try? await outbound.close(.init(codeNumber: Int(code.rawValue)), reason: reason)
        }
    }
#endif

#if Hummingbird
    /// The app's live sessions as a `Service`: list it last, after the store and the application. A service group
    /// shuts down in reverse order, so on graceful shutdown every session closes first with 1001 (its client
    /// reconnects, and resumes in the next process when the resume store is saved once the group returns) — before
    /// Hummingbird closes the remaining sockets and before the store closes. It waits at most the group's
    /// `gracePeriod` for clients that do not read.
    ///
    /// ```swift
    /// let sessions = LiveSessionGroup(gracePeriod: .seconds(5))
    /// var todos = LiveResultsSession(store: store, request: request)
    /// todos.sessions = sessions
    /// let group = ServiceGroup(services: [store, app, sessions], logger: logger)
    /// ```
    extension LiveSessionGroup: Service {
        /// Waits until graceful shutdown or cancellation, then closes every session and waits for them to end (at
        /// most the grace period).
        public func run() async throws {
            // Returns at graceful shutdown, throws at cancellation: either way the sessions close.
            try? await gracefulShutdown()
            await shutdown()
        }
    }
#endif
