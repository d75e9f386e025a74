import Logging
import Synchronization

/// One sectioned list built from parts — fixed sections and live results controllers of different
/// entities, each optionally capped — that speaks global index paths.
///
/// NSFetchedResultsController has no answer for this: apps offset index paths by hand, cap rows in the
/// data source, and break as soon as a part's section count changes. Here the composite translates every
/// batch: a part's section deletes and moves use the old index space, inserts the new one, and changes of
/// several parts in one transaction arrive as one batch.
///
/// ```swift
/// let home = CompositeResultsController()
/// let menu = try home.addFixedSection("Menu", rows: ["Settings"])
/// let articles = try home.add(articlesController, limit: 3)
/// let projects = try home.add(projectsController, limit: 3)
/// home.delegate = tableAnimator
/// try await home.performFetch()
/// home.numberOfSections                              // 1 + the parts' sections
/// home.object(at: RowPath(section: 1, row: 0), in: articles)   // an Article, or nil
/// ```
///
/// The composite becomes the delegate of the controllers it is given; read each part through it.
public final class CompositeResultsController: Sendable {
    struct State {
        /// The composite's decisions: its parts' content, what the delegate was told, what is pending.
        var machine = CompositeMachine()
        /// The results parts' links to their controllers, in the order they were added.
        var sources: [any CompositeSource] = []
        weak var delegate: (any ResultsControllerDelegate<CompositeResultsController>)?
    }

    let state = Mutex(State())
    let logger: Logger
    let signals: AsyncStream<Void>.Continuation
    let emission = TransitionLock()
    private let processor: Mutex<Task<Void, Never>?> = Mutex(nil)
    /// The tasks the composite starts for its own work (see ``TaskCensus``).
    package let census = TaskCensus()

    /// An empty composite; add parts, then call ``performFetch()``. `logger` (by default the task's,
    /// `Logger.current`) receives its failures, at debug.
    public init(logger: Logger? = nil) {
        self.logger = logger ?? .current
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        signals = continuation
        let task = census.start { [weak self] in
            for await _ in stream {
                guard let self else { return }
                await self.emission.run { await self.emitPending() }
            }
        }
        processor.withLock { $0 = task }
    }

    deinit {
        signals.finish()
        processor.withLock { $0?.cancel() }
    }

    /// The delegate that receives each batch, in global index paths. Held weakly.
    public var delegate: (any ResultsControllerDelegate<CompositeResultsController>)? {
        get { state.withLock { $0.delegate } }
        set {
            perform(
                state.withLock { state in
                    state.delegate = newValue
                    return decide(.delegateChanged(newValue != nil), in: &state)
                })
        }
    }

    /// Adds a section of fixed rows (a menu, a header row) after the parts added so far.
    ///
    /// - Throws: ``FetchKitError/Code/unsupported`` after ``performFetch()``.
    @discardableResult
    public func addFixedSection(_ name: String, rows: [String]) throws -> FixedPart {
        let content = PartContent(names: [name], counts: [rows.count], window: nil, fixedRows: rows)
        return FixedPart(index: try append(.fixed(content), source: nil))
    }

    /// Adds `controller`'s results after the parts added so far, each of its sections showing at most
    /// `limit` rows (all when `nil`). The composite becomes the controller's delegate.
    ///
    /// - Throws: ``FetchKitError/Code/unsupported`` after ``performFetch()``.
    @discardableResult
    public func add<Object: Sendable>(_ controller: ResultsController<Object>, limit: Int? = nil) throws -> ResultsPart<
        Object
    > {
        let index = state.withLock { $0.machine.parts.count }
        let source = ResultsPartSource(
            controller: controller, limit: limit.map { max(0, $0) }, index: index,
            report: { [weak self] part, transactionID, translate in self?.receive(part, transactionID, translate) },
            reportFailure: { [weak self] error in self?.receiveFailure(error) })
        return ResultsPart(index: try append(.results, source: source))
    }

    private func append(_ part: CompositeMachine.Part, source: (any CompositeSource)?) throws -> Int {
        try state.withLock { state in
            guard let index = decide(.partAdded(part), in: &state).addedPart else {
                throw FetchKitError.unsupported("parts are added to a composite before its performFetch()")
            }
            if let source { state.sources.append(source) }
            return index
        }
    }

    /// Fetches every results part and starts following them; calls no delegate method.
    public func performFetch() async throws {
        let sources = state.withLock { $0.sources }
        for source in sources { try await source.fetch() }
        await emission.run {
            self.send { state in
                .fetchCompleted(
                    Dictionary(state.sources.map { ($0.index, $0.currentContent()) }, uniquingKeysWith: { $1 }))
            }
        }
    }

    /// Waits until the composite has told its delegate about every change the store published before this
    /// call.
    public func sync() async {
        let sources = state.withLock { $0.sources }
        for source in sources { await source.sync() }
        await emission.run { await self.emitPending() }
    }

    /// Whether every part follows the database: the first part's failure, else the first part resyncing,
    /// else ``ResultsStatus/fetching`` or ``ResultsStatus/idle`` while a part is, else the part furthest behind
    /// (``ResultsStatus/catchingUp(lag:)``), else ``ResultsStatus/live``.
    public var status: ResultsStatus {
        let (sources, failure) = state.withLock { ($0.sources, $0.machine.failure) }
        if let failure { return .failed(failure) }
        let statuses = sources.map(\.status)
        if let failed = statuses.first(where: \.isFailed) { return failed }
        if let resyncing = statuses.first(where: { if case .resyncing = $0 { true } else { false } }) {
            return resyncing
        }
        if statuses.contains(.fetching) { return .fetching }
        if statuses.contains(.idle) { return .idle }
        let lags = statuses.compactMap { status -> Duration? in
            if case .catchingUp(let lag) = status { lag } else { nil }
        }
        return lags.max().map { .catchingUp(lag: $0) } ?? .live
    }

    /// A part stopped with a permanent failure: the delegate hears of it after the batches before it.
    private func receiveFailure(_ error: FetchKitError) {
        send(.partFailed(error))
    }

    /// A part's change, translated under the lock from what the part last reported. A change that cannot be
    /// translated (a state FetchKit never reaches unless it has a bug) stops the composite with an
    /// ``FetchKitError/Code/inconsistency`` error rather than leave it silently behind its parts.
    private func receive(_ part: Int, _ transactionID: UInt64?, _ translate: @escaping CompositeMachine.Translate) {
        send(.partChanged(part: part, transactionID: transactionID, translate: translate))
    }
}
