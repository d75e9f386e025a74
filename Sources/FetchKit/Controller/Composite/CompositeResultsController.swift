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
        var parts: [Part] = []
        var started = false
        /// What each part last reported (pending changes included).
        var latest: [PartContent] = []
        /// What the delegate has been told: the composite's content.
        var applied: [PartContent] = []
        var pending: [Pending] = []
        /// Set when a part's change could not be translated: the composite stopped (see ``status``).
        var failure: FetchKitError?
        weak var delegate: (any ResultsControllerDelegate<CompositeResultsController>)?
    }

    enum Part: Sendable {
        case fixed(name: String, rows: [String])
        case results(any CompositeSource)
    }

    struct Pending: Sendable {
        var part: Int
        var transactionID: UInt64?
        var changeset: Changeset
        var content: PartContent
    }

    let state = Mutex(State())
    let logger: Logger
    private let signals: AsyncStream<Void>.Continuation
    private let emission = TransitionLock()
    private let processor: Mutex<Task<Void, Never>?> = Mutex(nil)
    /// The tasks the composite starts for its own work (see ``TaskCensus``).
    package let census = TaskCensus()

    /// An empty composite; add parts, then call ``performFetch()``. `logger` receives its failures.
    public init(logger: Logger? = nil) {
        self.logger = logger ?? Logger(label: "fetchkit.composite", factory: { _ in SwiftLogNoOpLogHandler() })
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        signals = continuation
        let task = census.start { [weak self] in
            for await _ in stream {
                guard let self else { return }
                try? await self.emission.run { await self.emitPending() }
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
        set { state.withLock { $0.delegate = newValue } }
    }

    /// Adds a section of fixed rows (a menu, a header row) after the parts added so far.
    ///
    /// - Throws: ``FetchKitError/Code/unsupported`` after ``performFetch()``.
    @discardableResult
    public func addFixedSection(_ name: String, rows: [String]) throws -> FixedPart {
        FixedPart(index: try append(.fixed(name: name, rows: rows)))
    }

    /// Adds `controller`'s results after the parts added so far, each of its sections showing at most
    /// `limit` rows (all when `nil`). The composite becomes the controller's delegate.
    ///
    /// - Throws: ``FetchKitError/Code/unsupported`` after ``performFetch()``.
    @discardableResult
    public func add<Object: Sendable>(_ controller: ResultsController<Object>, limit: Int? = nil) throws -> ResultsPart<
        Object
    > {
        let index = state.withLock { $0.parts.count }
        let source = ResultsPartSource(
            controller: controller, limit: limit.map { max(0, $0) }, index: index,
            report: { [weak self] part, transactionID, make in self?.receive(part, transactionID, make) },
            reportFailure: { [weak self] error in self?.receiveFailure(error) })
        return ResultsPart(index: try append(.results(source)))
    }

    private func append(_ part: Part) throws -> Int {
        try state.withLock { state in
            guard !state.started else {
                throw FetchKitError.unsupported("parts are added to a composite before its performFetch()")
            }
            state.parts.append(part)
            return state.parts.count - 1
        }
    }

    /// Fetches every results part and starts following them; calls no delegate method.
    public func performFetch() async throws {
        let parts = state.withLock { $0.parts }
        for case .results(let source) in parts { try await source.fetch() }
        try await emission.run {
            state.withLock { state in
                state.latest = state.parts.map { part in
                    switch part {
                    case .fixed(let name, let rows):
                        PartContent(names: [name], counts: [rows.count], window: nil, fixedRows: rows)
                    case .results(let source): source.currentContent()
                    }
                }
                state.applied = state.latest
                state.pending = []
                state.started = true
            }
        }
    }

    /// Waits until the composite has told its delegate about every change the store published before this
    /// call.
    public func sync() async {
        let parts = state.withLock { $0.parts }
        for case .results(let source) in parts { await source.sync() }
        try? await emission.run { await self.emitPending() }
    }

    /// Whether every part follows the database: the first part's failure, else the first part resyncing,
    /// else ``ResultsStatus/fetching`` or ``ResultsStatus/idle`` while a part is, else the part furthest behind
    /// (``ResultsStatus/catchingUp(lag:)``), else ``ResultsStatus/live``.
    public var status: ResultsStatus {
        let (parts, failure) = state.withLock { ($0.parts, $0.failure) }
        if let failure { return .failed(failure) }
        var statuses: [ResultsStatus] = []
        for case .results(let source) in parts { statuses.append(source.status) }
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
        census.start { [weak self] in
            guard let self else { return }
            try? await self.emission.run {
                await self.emitPending()
                self.delegate?.controller(self, didFailWith: error)
            }
        }
    }

    /// A part's change, computed under the lock from what the part last reported. A change that cannot be
    /// translated (a state FetchKit never reaches unless it has a bug) stops the composite with an
    /// ``FetchKitError/Code/inconsistency`` error rather than leave it silently behind its parts.
    private func receive(
        _ part: Int, _ transactionID: UInt64?, _ make: (PartContent) throws -> (Changeset, PartContent)?
    ) {
        var failure: FetchKitError?
        let added = state.withLock { state -> Bool in
            guard state.started, state.failure == nil, state.latest.indices.contains(part) else { return false }
            do {
                guard let (changeset, content) = try make(state.latest[part]) else { return false }
                state.latest[part] = content
                state.pending.append(
                    Pending(part: part, transactionID: transactionID, changeset: changeset, content: content))
                return true
            } catch {
                failure = FetchKitError.inconsistency("part \(part)'s change could not be translated: \(error)")
                state.failure = failure
                return false
            }
        }
        if added { signals.yield() }
        if let failure {
            logger.error("composite results stopped", metadata: ["part": "\(part)", "error": "\(failure)"])
            receiveFailure(failure)
        }
    }
}
