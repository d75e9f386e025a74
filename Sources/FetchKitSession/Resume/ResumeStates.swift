import FetchKit

/// The states a server keeps so that clients can resume: for each session, the last few lists it sent, with
/// the request (scope included) they answer — bounded in age, in states per session and in rows overall. A
/// value: events and the current instant in, answers out (``ResumeStore`` holds it under a lock).
struct ResumeStates<Object: Sendable>: Sendable {
    /// A list a session sent.
    struct Sent: Sendable {
        var sequence: UInt64
        var snapshot: ResultsSnapshot<Object>
    }

    /// One session's kept lists, newest last.
    struct Session: Sendable {
        var request: AnyFetchRequest
        var sent: [Sent]
        var touched: ContinuousClock.Instant
        var rows: Int { sent.reduce(0) { $0 + $1.snapshot.count } }
    }

    /// What a token finds.
    enum Lookup: Sendable {
        /// The list the token's message left the client with.
        case found(ResultsSnapshot<Object>)
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
        var entry = sessions[session] ?? Session(request: request, sent: [], touched: now)
        rows -= entry.rows
        if entry.request != request { entry = Session(request: request, sent: [], touched: now) }
        entry.sent.append(Sent(sequence: sequence, snapshot: snapshot))
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
        guard let entry = sessions[token.session], entry.request == request else { return .unknown }
        guard now - entry.touched <= keepFor else { return .expired }
        guard let sent = entry.sent.last(where: { $0.sequence == token.sequence }) else {
            return token.sequence <= (entry.sent.last?.sequence ?? 0) ? .expired : .unknown
        }
        sessions[token.session]?.touched = now
        return .found(sent.snapshot)
    }

    /// Forgets sessions older than ``keepFor``, then the least recently used ones while the rows kept exceed
    /// ``maximumRows`` (never `keeping`, the session that just sent).
    private mutating func evict(at now: ContinuousClock.Instant, keeping: String?) {
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
