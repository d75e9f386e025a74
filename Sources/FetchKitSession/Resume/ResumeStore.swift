import FetchKit
import Foundation
import Logging
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
///
/// ## Across a restart
///
/// The lists live in the process's memory. Given an `archive` file, the store reads what the previous process
/// saved there when it is made, and ``save()`` writes what it keeps now: call it once the sessions have closed
/// on a graceful shutdown, and clients that reconnect to the next process resume instead of reloading.
///
/// ```swift
/// let resume = ResumeStore<Todo>(archive: URL(filePath: "/var/lib/app/todos.resume"))
/// // … serve until the service group (or Vapor's `app.asyncShutdown()`) returns: the sessions closed with 1001 …
/// try resume.save()
/// ```
///
/// The archive serves the process that reads it when it starts — the next one, after a restart or a deploy — not
/// the other instances running beside it: a client that reconnects to another instance gets `reset` and the whole
/// list, as does one that comes back after a crash (nothing was saved). The archive holds every user's rows
/// (written 0600: keep it where only the server reads) and one store's states alone (give each store a file of
/// its own). A restored state serves only a session of the very request it answered, scope and client filter
/// included, and only while it fits this store's bounds, the time the server was down counted in its age. An
/// archive that is not one, is of another format version or is corrupt is ignored whole, with a warning (its
/// clients reset). A deploy that changes what a client is sent of an unchanged row (the projection) should start
/// without the previous archive: the lists its clients hold would not be what it sends.
public final class ResumeStore<Object: Sendable>: Sendable {
    private let states: Mutex<ResumeStates<Object>>
    /// The file ``save()`` writes and a new store reads (`nil`: none).
    public let archive: URL?
    let logger: Logger

    /// A store that keeps each session's last `statesPerSession` lists for `keepFor`, and `maximumRows` rows at
    /// most; with an `archive`, it starts with the states a previous process saved there that fit these bounds.
    /// `logger` says what was restored, ignored and saved (`fetchkit.session` unless given).
    public init(
        keepFor: Duration = .seconds(120), statesPerSession: Int = 4, maximumRows: Int = 1_000_000,
        archive: URL? = nil, logger: Logger? = nil
    ) {
        states = Mutex(
            ResumeStates(keepFor: keepFor, statesPerSession: statesPerSession, maximumRows: maximumRows))
        self.archive = archive
        self.logger = logger ?? Logger(label: "fetchkit.session")
        if let archive { restore(from: archive) }
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

    /// A copy of the states, for work done outside the lock.
    var kept: ResumeStates<Object> { states.withLock { $0 } }

    /// Takes in `archive`'s sessions written `elapsed` ago; see ``ResumeStates/restore(_:elapsed:at:)``.
    func restore(_ archive: ResumeArchive, elapsed: Duration) -> Int {
        let now = ContinuousClock.now
        return states.withLock { $0.restore(archive.sessions, elapsed: elapsed, at: now) }
    }
}
