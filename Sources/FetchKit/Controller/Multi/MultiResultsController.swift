import Logging
import Synchronization

/// A live controller over several named fetch requests, one current at a time, that animates the switch
/// between them: ``transition(to:)`` emits one valid batch from the old results to the new ones.
///
/// NSFetchedResultsController needs a library for this (FPMultiFetchedResultsController), which requires
/// identical sort descriptors when sectioned and reports a failed switch after it already switched. Here
/// sections match by name and rows by primary key whatever the requests sort by, moves are minimal,
/// changed rows are flagged, and a failed transition changes nothing.
///
/// ```swift
/// let todos = try MultiResultsController(store: store, requests: [
///     "all": FetchRequest(entity: "Todo", sortDescriptors: [.ascending("ordering")]),
///     "open": FetchRequest(entity: "Todo", predicate: try FetchPredicate(format: "done == NO"),
///                          sortDescriptors: [.ascending("ordering")]),
/// ], initial: "open")
/// todos.delegate = tableAnimator
/// try await todos.performFetch()
/// try await todos.transition(to: "all")   // one batch: the done todos slide in
/// ```
///
/// Live changes keep flowing for the current request, with the multi-controller as the delegate's sender.
public final class MultiResultsController<Object: Sendable>: Sendable {
    /// The tasks the multi-controller's results controller starts (see ``TaskCensus``).
    package var census: TaskCensus { controller.census }

    /// The named requests.
    public let requests: [String: FetchRequest<Object>]
    /// The results controller showing the current request.
    let controller: ResultsController<Object>
    private let forwarder: Forwarder
    private let current:
        Mutex<(name: String, delegate: WeakDelegate, pending: (name: String, request: AnyFetchRequest)?)>
    /// Serializes transitions, so the current name always names the controller's request.
    private let transitions = TransitionLock()

    init(requests: [String: FetchRequest<Object>], initial: String, controller: ResultsController<Object>) {
        self.requests = requests
        self.controller = controller
        self.current = Mutex((initial, WeakDelegate(), nil))
        self.forwarder = Forwarder()
        forwarder.owner.withLock { $0 = WeakOwner(value: self) }
        controller.delegate = forwarder
    }

    /// The delegate that receives each batch. Held weakly.
    public var delegate: (any ResultsControllerDelegate<MultiResultsController<Object>>)? {
        get { current.withLock { $0.delegate.value } }
        set { setDelegate(newValue, isolation: nil) }
    }

    /// Sets the delegate and the actor its callbacks run on (see ``ResultsController/setDelegate(_:isolation:)``).
    public func setDelegate(
        _ delegate: (any ResultsControllerDelegate<MultiResultsController<Object>>)?, isolation actor: (any Actor)?
    ) {
        current.withLock { $0.delegate = WeakDelegate(value: delegate) }
        controller.setDelegate(forwarder, isolation: delegate == nil ? nil : actor)
    }

    /// Tells the controller that the delegate's UI has already moved a row, and writes the move (see
    /// ``ResultsController/userMovedRow(from:to:)``).
    nonisolated(nonsending) public func userMovedRow(from: RowPath, to: RowPath) async throws {
        try await controller.userMovedRow(from: from, to: to)
    }

    /// The name of the current request; inside a transition's callbacks, already the new one.
    public var currentName: String {
        let (name, pending) = current.withLock { ($0.name, $0.pending) }
        // A transition's batch is published with its request: from then on, its callbacks included, the
        // name is the new one.
        if let pending, controller.request.erased == pending.request { return pending.name }
        return name
    }
    /// The current request.
    public var request: FetchRequest<Object> { controller.request }
    /// The current results.
    public var snapshot: ResultsSnapshot<Object> { controller.snapshot }
    /// Every fetched object of the current request, in order.
    public var fetchedObjects: ResultsObjects<Object> { controller.fetchedObjects }
    /// The sections of the current results, in order.
    public var sections: [ResultsSection<Object>] { controller.sections }
    /// The object at `path`, or `nil` when out of range.
    public func object(at path: RowPath) -> Object? { controller.object(at: path) }
    /// The path of the object whose primary key is `key`.
    public func rowPath(forKey key: Value) -> RowPath? { controller.rowPath(forKey: key) }

    /// Whether the controller follows the database, and if not, why (see ``ResultsStatus``).
    public var status: ResultsStatus { controller.status }
    /// The status now, then each change of it.
    public func statusUpdates() -> AsyncStream<ResultsStatus> { controller.statusUpdates() }

    /// Fetches the current request's results; calls no delegate method.
    ///
    /// - Throws: ``FetchKitError/Code/sectionOrder`` before fetching when the order of any of the requests can
    ///   split a section (a case-insensitive sort descriptor on its section key path, or another sort descriptor
    ///   before that one's); else the errors of ``ResultsController/performFetch()``.
    public func performFetch() async throws {
        for name in requests.keys.sorted() { try requests[name]?.erased.checkSectionOrder() }
        try await controller.performFetch()
    }

    /// Waits until the results reflect every change the store published before this call.
    public func sync() async { await controller.sync() }

    /// The results as a stream: the current snapshot first, then one element per batch (live changes and
    /// transitions).
    public func updates(bufferingLimit: Int = 64) -> ResultsStream<Object> {
        controller.updates(bufferingLimit: bufferingLimit)
    }

    /// Switches to the request named `name`, emitting one batch from the old results to the new ones.
    ///
    /// Sections are matched by name and rows by primary key; a row that stays but moves is a move (flagged
    /// updated when its content differs), a row that stays in place with other content an update. A
    /// transition to the current name refetches and emits whatever differs.
    ///
    /// - Throws: ``FetchKitError/Code/unknownRequestName`` for a name it does not have, or the error of
    ///   the fetch; either way the current name, the results and the delegate's view stay exactly as they
    ///   were (no callback is made).
    public func transition(to name: String) async throws {
        guard let request = requests[name] else {
            throw FetchKitError.unknownRequestName(name, known: requests.keys.sorted())
        }
        try await transitions.run {
            current.withLock { $0.pending = (name, request.erased) }
            do {
                try await controller.setRequest(request)
            } catch {
                current.withLock { $0.pending = nil }
                throw error
            }
            current.withLock {
                $0.name = name
                $0.pending = nil
            }
        }
    }
}

extension MultiResultsController where Object == Row {
    /// A multi-controller of untyped rows, starting on the request named `initial`.
    ///
    /// - Throws: ``FetchKitError/Code/unknownRequestName`` when `initial` is not one of `requests`.
    public convenience init(
        store: any PersistentStore, requests: [String: FetchRequest<Row>], initial: String,
        logger: Logger? = nil
    ) throws {
        guard let request = requests[initial] else {
            throw FetchKitError.unknownRequestName(initial, known: requests.keys.sorted())
        }
        self.init(
            requests: requests, initial: initial,
            controller: ResultsController(store: store, request: request, logger: logger))
    }
}

extension MultiResultsController where Object: Record {
    /// A multi-controller of typed records, starting on the request named `initial`.
    ///
    /// - Throws: ``FetchKitError/Code/unknownRequestName`` when `initial` is not one of `requests`.
    public convenience init(
        store: any PersistentStore, requests: [String: FetchRequest<Object>], initial: String,
        logger: Logger? = nil
    ) throws {
        guard let request = requests[initial] else {
            throw FetchKitError.unknownRequestName(initial, known: requests.keys.sorted())
        }
        self.init(
            requests: requests, initial: initial,
            controller: ResultsController(store: store, request: request, logger: logger))
    }
}
