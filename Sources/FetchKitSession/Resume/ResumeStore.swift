import FetchKit
import Synchronization

/// Where a server keeps the last lists its sessions sent, so that a client that reconnects receives one batch
/// from what it holds instead of the whole list again. One per route (or per app), shared by its sessions.
///
/// ```swift
/// let resume = ResumeStore<Todo>(keepFor: .seconds(120), maximumRows: 2_000_000)
/// ```
///
/// It keeps, for each session, its last `statesPerSession` lists, for `keepFor` after the session last sent or
/// resumed, and at most `maximumRows` rows in all (the least recently used sessions go first). Kept lists share
/// their rows with each other and with the live results, so a list that changed by a row costs about a row.
public final class ResumeStore<Object: Sendable>: Sendable {
    private let states: Mutex<ResumeStates<Object>>

    /// A store that keeps each session's last `statesPerSession` lists for `keepFor`, and `maximumRows` rows at
    /// most.
    public init(keepFor: Duration = .seconds(120), statesPerSession: Int = 4, maximumRows: Int = 1_000_000) {
        states = Mutex(
            ResumeStates(keepFor: keepFor, statesPerSession: statesPerSession, maximumRows: maximumRows))
    }

    /// How many sessions it keeps lists of now.
    public var sessionCount: Int { states.withLock { $0.sessions.count } }

    /// How many rows its kept lists hold, counted per list.
    public var rowCount: Int { states.withLock { $0.rows } }

    func sent(_ snapshot: ResultsSnapshot<Object>, as token: ResumeToken, for request: AnyFetchRequest) {
        let now = ContinuousClock.now
        states.withLock {
            $0.sent(snapshot, sequence: token.sequence, session: token.session, request: request, at: now)
        }
    }

    func lookup(_ token: ResumeToken, for request: AnyFetchRequest) -> ResumeStates<Object>.Lookup {
        let now = ContinuousClock.now
        return states.withLock { $0.lookup(token, request: request, at: now) }
    }
}
