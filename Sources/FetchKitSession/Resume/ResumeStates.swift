import FetchKit

/// The states a server keeps so that clients can resume: for each session, the last few lists it sent, with
/// the request (scope included) they answer — bounded in age, in states per session and in rows overall. A
/// value: events and the current instant in, answers out (``ResumeStore`` holds it under a lock). Sessions of a
/// previous process come in from its archive (see ResumeStates+Archive.swift).
struct ResumeStates<Object: Sendable>: Sendable {
    /// A kept list: a snapshot this process sent, or one a previous process sent, restored from its archive as
    /// rows (its objects are made again when a client resumes from it).
    enum List: Sendable {
        case snapshot(ResultsSnapshot<Object>)
        case archived(ArchivedList)

        var count: Int {
            switch self {
            case .snapshot(let snapshot): snapshot.count
            case .archived(let list): list.count
            }
        }
    }

    /// A list a session sent.
    struct Sent: Sendable {
        var sequence: UInt64
        var list: List
    }

    /// The request a session's lists answer: this process's own, or a restored session's identity of it.
    enum Request: Sendable {
        case live(AnyFetchRequest)
        case restored(RequestIdentity)

        /// Whether these lists answer `request`.
        func matches(_ request: AnyFetchRequest) -> Bool {
            switch self {
            case .live(let live): live == request
            case .restored(let identity): identity == RequestIdentity(request)
            }
        }

        /// Whether this is `request`, of this process.
        func isLive(_ request: AnyFetchRequest) -> Bool {
            if case .live(let live) = self { live == request } else { false }
        }
    }

    /// One session's kept lists, newest last.
    struct Session: Sendable {
        var request: Request
        var sent: [Sent]
        var touched: ContinuousClock.Instant
        var rows: Int { sent.reduce(0) { $0 + $1.list.count } }
    }

    /// What a token finds.
    enum Lookup: Sendable {
        /// The list the token's message left the client with.
        case found(List)
        /// Its session is known for this request, but that state is no longer kept (or has aged out).
        case expired
        /// No session of this request issued it.
        case unknown
    }

    var keepFor: Duration
    var statesPerSession: Int
    var maximumRows: Int
    private(set) var sessions: [String: Session] = [:]
    private(set) var rows = 0
    /// When sessions were last checked for age (at most once a second: a server sends thousands of batches a
    /// second, and each would otherwise walk every session).
    private var lastSweep: ContinuousClock.Instant?

    init(keepFor: Duration, statesPerSession: Int, maximumRows: Int) {
        self.keepFor = keepFor
        self.statesPerSession = max(1, statesPerSession)
        self.maximumRows = maximumRows
    }

    /// Session `session` sent `snapshot` as message `sequence`, for `request`.
    mutating func sent(
        _ snapshot: ResultsSnapshot<Object>, sequence: UInt64, session: String, request: AnyFetchRequest,
        at now: ContinuousClock.Instant
    ) {
        var entry = sessions[session] ?? Session(request: .live(request), sent: [], touched: now)
        rows -= entry.rows
        if !entry.request.isLive(request) { entry = Session(request: .live(request), sent: [], touched: now) }
        entry.sent.append(Sent(sequence: sequence, list: .snapshot(snapshot)))
        if entry.sent.count > statesPerSession { entry.sent.removeFirst(entry.sent.count - statesPerSession) }
        entry.touched = now
        rows += entry.rows
        sessions[session] = entry
        evict(at: now, keeping: session)
    }

    /// The list `token` names, when it was issued for `request` and is still kept.
    mutating func lookup(
        _ token: ResumeToken, request: AnyFetchRequest, at now: ContinuousClock.Instant
    ) -> Lookup {
        evict(at: now, keeping: nil)
        guard let entry = sessions[token.session], entry.request.matches(request) else { return .unknown }
        guard now - entry.touched <= keepFor else { return .expired }
        guard let sent = entry.sent.last(where: { $0.sequence == token.sequence }) else {
            return token.sequence <= (entry.sent.last?.sequence ?? 0) ? .expired : .unknown
        }
        sessions[token.session]?.touched = now
        return .found(sent.list)
    }

    /// Keeps `session` as `id` (a previous process's), unless a session of that ID is kept already.
    mutating func adopt(_ session: Session, as id: String) -> Bool {
        guard sessions[id] == nil, !session.sent.isEmpty else { return false }
        sessions[id] = session
        rows += session.rows
        return true
    }

    /// Forgets sessions older than ``keepFor``, then the least recently used ones while the rows kept exceed
    /// ``maximumRows`` (never `keeping`, the session that just sent).
    mutating func evict(at now: ContinuousClock.Instant, keeping: String?) {
        if lastSweep.map({ now - $0 >= .seconds(1) }) ?? true {
            lastSweep = now
            for (id, entry) in sessions where id != keeping && now - entry.touched > keepFor {
                rows -= entry.rows
                sessions[id] = nil
            }
        }
        guard rows > maximumRows else { return }
        let oldest = sessions.filter { $0.key != keeping }.sorted { $0.value.touched < $1.value.touched }
        for (id, entry) in oldest {
            guard rows > maximumRows else { break }
            rows -= entry.rows
            sessions[id] = nil
        }
    }
}
