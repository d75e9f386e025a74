import FetchKit
import Logging

/// One live list for one remote client, over any WebSocket: the server's request narrowed by the user's scope
/// and the client's allowed filter and sort, kept current by a ``ResultsController`` and sent as the session
/// protocol's messages (see "The session protocol").
///
/// ```swift
/// let todos = LiveResultsSession(
///     store: store,
///     request: try FetchRequest<Todo>(
///         sortBy: [SortDescriptor(\.lane), SortDescriptor(\.position)], sectionBy: \.lane),
///     policy: ClientQueryPolicy(filterable: ["title", "done"], sortable: ["title"]),
///     resume: ResumeStore<Todo>()
/// ) { todo in TodoView(todo) }          // what the client may see of each record
///
/// // In the WebSocket handler, for the signed-in user:
/// await todos.run(scope: .key("ownerID") == user.id, inbound: messages, transport: socket)
/// ```
///
/// A session sends the next batch only after the previous send completed, so the controller's update sequence
/// coalesces what a slow client has not read: it receives fewer, larger batches, and the server holds at most
/// `bufferingLimit` batches for it. It acknowledges a move after every batch that shows the move's outcome,
/// tells the client the list's status, sends errors only as ``SessionError``s, and keeps what it sent in
/// `resume` so a client that reconnects receives one batch instead of the whole list.
public struct LiveResultsSession<Object: Sendable, Projected: Encodable & Sendable>: Sendable {
    /// The store the lists read.
    public let store: any PersistentStore
    /// The server's request; each client's is this one narrowed (see ``run(scope:inbound:transport:)``).
    public let request: FetchRequest<Object>
    /// What a client may filter and sort by.
    public let policy: ClientQueryPolicy
    /// Where the sessions keep what they sent, for clients that reconnect (`nil`: every reconnect reloads).
    public let resume: ResumeStore<Object>?
    /// How many batches a client that does not read may fall behind before they coalesce into one.
    public var bufferingLimit = 16
    /// The app's running sessions, which a graceful shutdown closes with 1001 before the store closes.
    public var sessions: LiveSessionGroup?
    let project: @Sendable (Object) -> Projected
    let makeController: @Sendable (any PersistentStore, FetchRequest<Object>, Logger) -> ResultsController<Object>
    let logger: Logger

    init(
        store: any PersistentStore, request: FetchRequest<Object>, policy: ClientQueryPolicy,
        resume: ResumeStore<Object>?, logger: Logger?,
        makeController:
            @escaping @Sendable (any PersistentStore, FetchRequest<Object>, Logger) -> ResultsController<
                Object
            >,
        project: @escaping @Sendable (Object) -> Projected
    ) {
        self.store = store
        self.request = request
        self.policy = policy
        self.resume = resume
        self.logger = logger ?? Logger(label: "fetchkit.session")
        self.makeController = makeController
        self.project = project
    }
}

extension LiveResultsSession where Object: Record {
    /// Sessions of `request`'s records, each projected to what a client may see.
    public init(
        store: any PersistentStore, request: FetchRequest<Object>, policy: ClientQueryPolicy = .init(),
        resume: ResumeStore<Object>? = nil, logger: Logger? = nil,
        projection: @escaping @Sendable (Object) -> Projected
    ) {
        self.init(
            store: store, request: request, policy: policy, resume: resume, logger: logger,
            makeController: { ResultsController(store: $0, request: $1, logger: $2) }, project: projection)
    }
}

extension LiveResultsSession where Object: Record & Encodable, Projected == Object {
    /// Sessions of `request`'s records, sent whole.
    public init(
        store: any PersistentStore, request: FetchRequest<Object>, policy: ClientQueryPolicy = .init(),
        resume: ResumeStore<Object>? = nil, logger: Logger? = nil
    ) {
        self.init(store: store, request: request, policy: policy, resume: resume, logger: logger) { $0 }
    }
}

extension LiveResultsSession where Object == Row {
    /// Sessions of `request`'s rows, each projected to what a client may see.
    public init(
        store: any PersistentStore, request: FetchRequest<Row>, policy: ClientQueryPolicy = .init(),
        resume: ResumeStore<Row>? = nil, logger: Logger? = nil,
        projection: @escaping @Sendable (Row) -> Projected
    ) {
        self.init(
            store: store, request: request, policy: policy, resume: resume, logger: logger,
            makeController: { ResultsController(store: $0, request: $1, logger: $2) }, project: projection)
    }
}

extension LiveResultsSession where Object == Row, Projected == Row {
    /// Sessions of `request`'s rows, sent whole.
    public init(
        store: any PersistentStore, request: FetchRequest<Row>, policy: ClientQueryPolicy = .init(),
        resume: ResumeStore<Row>? = nil, logger: Logger? = nil
    ) {
        self.init(store: store, request: request, policy: policy, resume: resume, logger: logger) { $0 }
    }
}
