#if Vapor
    import FetchKit
    import Vapor

    extension Request {
        /// FetchKit for this request: the application's store.
        ///
        /// ```swift
        /// app.get("todos", "count") { req in
        ///     String(try await req.fetchKit.store.count(FetchRequest<Todo>()))
        /// }
        /// ```
        public var fetchKit: FetchKit { FetchKit(request: self) }

        /// FetchKit for a request (`req.fetchKit`).
        ///
        /// ```swift
        /// let store = req.fetchKit.store
        /// ```
        public struct FetchKit: Sendable {
            let request: Request

            /// The application's store (`app.fetchKit.use(store)`). Reading it when the application has none is a
            /// programming error, and stops the process.
            ///
            /// ```swift
            /// try await req.fetchKit.store.write { tx in try tx.insert(todo) }
            /// ```
            public var store: any PersistentStore { request.application.fetchKit.store }
        }
    }
#endif
