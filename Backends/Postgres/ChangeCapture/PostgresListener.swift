import CLibPQ
import CoreMetrics
import FetchKit
import FetchKitDrivers
import Foundation
import Logging
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The one connection that `LISTEN`s on FetchKit's channel and turns notifications into ``StoreChange``s.
///
/// It runs on a thread of its own: `poll()` on the connection's socket (and on a pipe that ``stop()``
/// writes to), then `PQconsumeInput` and `PQnotifies`. Notifications of one transaction (the same server
/// transaction ID, delivered together at commit) become one change: a ``PostgresStore`` write ends its
/// transaction with a marker that closes the change at once; another client's transaction is closed when a
/// notification of another transaction arrives or its burst ends (``PostgresStore/ListenerOptions/burstQuietPeriod``
/// without input). A payload it cannot parse is logged and
/// published as a resync, never a crash.
///
/// A broken connection is noticed by a failed read, by TCP keepalives, or by a ping (`SELECT 1`) after
/// ``Options/pingInterval`` of silence — or when a write's change is overdue — that goes unanswered for
/// ``Options/pingTimeout`` (a server process that is stopped or stuck); the listener then reconnects with exponential backoff, issues
/// `LISTEN` again and publishes a resync, so every live controller refetches whatever committed during the
/// gap. Its ``state`` says which of those it is doing.
final class PostgresListener: Sendable {
    /// What the listener is doing.
    enum State: Sendable, Equatable {
        /// Connected, `LISTEN` issued: changes flow.
        case listening
        /// A write's change is overdue: the listener is checking that its server process still answers.
        case stalled(reason: String)
        /// The connection broke; trying again (attempt 1, 2, …) after `lastError`.
        case reconnecting(attempt: Int, lastError: String)
        /// Stopped by ``stop()``.
        case stopped
    }

    private let url: PostgresURL
    private let channel: String
    /// The schema whose tables' notifications this listener keeps.
    private let schemaName: String
    /// The tables whose primary key is `char(n)`: their keys arrive padded and are read without the padding,
    /// as fetches read them.
    private let paddedKeyTables: Set<String>
    let options: PostgresStore.ListenerOptions
    private let feed: ChangeFeed
    private let logger: Logger
    /// `fetchkit_listener_reconnects_total`: reconnections after the listener lost its connection.
    private let reconnects = Counter(label: "fetchkit_listener_reconnects_total")
    private let currentState = Mutex(State.listening)
    /// `poll()` also watches the read end; ``stop()`` and ``checkConnection()`` write to the other.
    let wakePipe: (read: Int32, write: Int32)
    /// Set by ``stop()`` before it wakes the thread (a wake without it asks for a check).
    private let stopRequested = Mutex(false)
    private let exited = Mutex<(done: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))
    private let listeningPID = Mutex<Int32?>(nil)
    private let stateSubscribers = Mutex<[Int: AsyncStream<State>.Continuation]>([:])
    /// Writes of the store waiting for their transaction's end marker.
    let completions = TransactionCompletions()

    private init(
        url: PostgresURL, channel: String, schemaName: String, paddedKeyTables: Set<String>,
        options: PostgresStore.ListenerOptions, feed: ChangeFeed, logger: Logger, wakePipe: (Int32, Int32)
    ) {
        self.url = url
        self.channel = channel
        self.schemaName = schemaName
        self.paddedKeyTables = paddedKeyTables
        self.options = options
        self.feed = feed
        self.logger = logger
        self.wakePipe = wakePipe
    }

    deinit {
        close(wakePipe.read)
        close(wakePipe.write)
    }

    /// Connects, issues `LISTEN` and starts the listening thread; the keys of `paddedKeyTables` (whose
    /// primary key is `char(n)`) are read without their trailing blanks.
    ///
    /// - Throws: the connection error when the first connection fails.
    static func start(
        url: PostgresURL, channel: String, schemaName: String, paddedKeyTables: Set<String> = [],
        options: PostgresStore.ListenerOptions, feed: ChangeFeed, logger: Logger
    ) async throws -> PostgresListener {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw FetchKitError.connectionLost("could not create the listener's wake pipe") }
        let listener = PostgresListener(
            url: url, channel: channel, schemaName: schemaName, paddedKeyTables: paddedKeyTables, options: options,
            feed: feed, logger: logger, wakePipe: (fds[0], fds[1]))
        try await withCheckedThrowingContinuation { (started: CheckedContinuation<Void, any Error>) in
            let thread = Thread {
                Thread.current.name = "fk.pg.listen"
                let connection: PostgresConnection
                do {
                    connection = try listener.connect()
                } catch {
                    listener.didExit()
                    started.resume(throwing: error)
                    return
                }
                started.resume()
                listener.run(connection)
                listener.didExit()
            }
            thread.start()
        }
        return listener
    }

    /// What the listener is doing now.
    var state: State { currentState.withLock { $0 } }

    /// The listener's state now, then every change of it, until it stops.
    func stateUpdates() -> AsyncStream<State> {
        let (stream, continuation) = AsyncStream.makeStream(of: State.self, bufferingPolicy: .unbounded)
        let id = stateSubscribers.withLock { subscribers -> Int in
            let id = (subscribers.keys.max() ?? 0) + 1
            subscribers[id] = continuation
            // Under the same lock as setState(_:), so no change falls between this first value and the next.
            continuation.yield(currentState.withLock { $0 })
            return id
        }
        continuation.onTermination = { [weak self] _ in
            self?.stateSubscribers.withLock { _ = $0.removeValue(forKey: id) }
        }
        if state == .stopped { continuation.finish() }
        return stream
    }

    private func setState(_ state: State) {
        let finished = stateSubscribers.withLock { subscribers -> [AsyncStream<State>.Continuation] in
            currentState.withLock { $0 = state }
            for continuation in subscribers.values { continuation.yield(state) }
            guard state == .stopped else { return [] }
            defer { subscribers.removeAll() }
            return Array(subscribers.values)
        }
        for continuation in finished { continuation.finish() }
    }

    /// The server process of the listening connection (what `pg_terminate_backend` takes), while connected.
    var backendPID: Int32? { listeningPID.withLock { $0 } }

    /// Stops listening and waits for the thread to close its connection and end.
    func stop() async {
        stopRequested.withLock { $0 = true }
        wake()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = exited.withLock { state -> Bool in
                if state.done { return true }
                state.waiters.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }

    /// Asks the listening thread to check at once that its server process answers (a write's change is
    /// overdue): it pings with ``PostgresStore/ListenerOptions/pingTimeout`` and reconnects — publishing a
    /// resync — when the ping goes unanswered.
    func checkConnection() {
        wake()
    }

    private func wake() {
        var byte: UInt8 = 1
        _ = write(wakePipe.write, &byte, 1)
    }

    /// Empties the wake pipe; returns whether ``stop()`` was called.
    func takeWake() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 64)
        var fds = [pollfd(fd: wakePipe.read, events: Int16(POLLIN), revents: 0)]
        while poll(&fds, 1, 0) > 0, read(wakePipe.read, &buffer, buffer.count) > 0 {}
        return stopRequested.withLock { $0 }
    }

    // MARK: - The listening thread

    /// A connection with TCP keepalives that has issued `LISTEN`.
    private func connect() throws -> PostgresConnection {
        let connection = try PostgresConnection.open(url, extra: options.keepaliveParameters)
        // Its idle socket receives notifications: that is no sign of a closing session.
        connection.checksIdleInput = false
        do {
            try connection.run("LISTEN \(PostgresChangeCapture.quotedChannel(channel))")
            try Self.verifySessionIsPinned(connection, url: url, extra: options.keepaliveParameters)
        } catch {
            connection.close()
            throw error
        }
        listeningPID.withLock { $0 = connection.backendPID }
        return connection
    }

    /// Listens until stopped, reconnecting whenever the connection breaks.
    private func run(_ first: PostgresConnection) {
        var connection: PostgresConnection? = first
        var group = TransactionGroup()
        while let current = connection {
            switch listen(on: current, group: &group) {
            case .stopped:
                current.close()
                connection = nil
            case .broken(let reason):
                listeningPID.withLock { $0 = nil }
                current.close()
                group.flush(to: feed)
                connection = reconnect(after: reason)
            }
        }
        setState(.stopped)
        completions.completeAll()
    }

    private enum Outcome {
        case stopped
        case broken(String)
    }

    /// Reads notifications until the connection breaks or ``stop()`` is called.
    private func listen(on connection: PostgresConnection, group: inout TransactionGroup) -> Outcome {
        let socket = PQsocket(connection.handle)
        guard socket >= 0 else { return .broken("the connection has no socket") }
        let ping = max(Self.milliseconds(options.pingInterval), 1)
        while true {
            var fds = [pollfd(fd: socket, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: wakePipe.read, events: Int16(POLLIN), revents: 0)]
            // With a transaction's notifications pending, wait only for the rest of its burst.
            let isPending = group.transactionID != nil
            let ready = isPending ? Self.pollBriefly(&fds, for: options.burstQuietPeriod) : poll(&fds, 2, ping)
            if ready < 0 {
                if errno == EINTR { continue }
                return .broken("poll failed (errno \(errno))")
            }
            if fds[1].revents != 0 {
                if takeWake() { return .stopped }
                // A write's change is overdue: does the server process still answer?
                setState(.stalled(reason: "a write's change was not published within \(options.publishTimeout); "
                    + "checking the listener's connection"))
                switch self.ping(connection, group: &group) {
                case .answered: setState(.listening)
                case .stopped: return .stopped
                case .failed(let reason): return .broken(reason)
                }
                continue
            }
            if ready == 0 && isPending {
                // A store write's transaction ends with its marker: wait for it. Another client's
                // (psql, another service) sends none: its notifications arrive in one burst at commit, and
                // the burst is over. (Were a burst to pause longer, its change would arrive in parts — each
                // still correct, since the transaction has committed whole.)
                if let id = group.transactionID, completions.isExpected(id) { continue }
                group.flush(to: feed)
                continue
            }
            if ready == 0 {
                // Silence: a half-open connection, or a server process that stopped, only shows itself when
                // something is asked of it.
                switch self.ping(connection, group: &group) {
                case .answered: continue
                case .stopped: return .stopped
                case .failed(let reason): return .broken(reason)
                }
            }
            if PQconsumeInput(connection.handle) == 0 {
                return .broken(PostgresConnection.message(PQerrorMessage(connection.handle)))
            }
            drain(connection, into: &group)
            if !connection.isConnected { return .broken(PostgresConnection.message(PQerrorMessage(connection.handle))) }
        }
    }

    /// Moves every notification libpq has read into `group`, flushing it when a new transaction starts.
    func drain(_ connection: PostgresConnection, into group: inout TransactionGroup) {
        while let notification = PQnotifies(connection.handle) {
            let payload = String(cString: notification.pointee.extra)
            PQfreemem(notification)
            guard var parsed = PostgresNotification(payload: payload) else {
                logger.info("unreadable change notification; resyncing", metadata: ["payload": "\(payload.prefix(200))"])
                group.flush(to: feed)
                feed.publishResync()
                continue
            }
            if let schema = parsed.schema, schema != schemaName { continue }
            if paddedKeyTables.contains(parsed.table) { parsed.removeKeyPadding() }
            if group.transactionID != parsed.transactionID { group.flush(to: feed) }
            if parsed.isEnd {
                group.flush(to: feed)
                completions.complete(parsed.transactionID)
            } else {
                group.add(parsed)
            }
        }
    }

    /// Connects again with exponential backoff; `nil` when stopped meanwhile. A new connection publishes a
    /// resync: whatever committed while nobody listened must reach the controllers.
    private func reconnect(after reason: String) -> PostgresConnection? {
        var delay = options.reconnectBackoff.lowerBound
        var attempt = 1
        var lastError = reason
        logger.warning("change listener lost its connection", metadata: ["reason": "\(reason)"])
        while true {
            setState(.reconnecting(attempt: attempt, lastError: lastError))
            if waitForStop(delay) { return nil }
            do {
                let connection = try connect()
                setState(.listening)
                reconnects.increment()
                logger.info("change listener reconnected", metadata: ["attempts": "\(attempt)"])
                feed.publishResync()
                // Writes waiting for their end markers: the markers may have been lost; the resync covers them.
                completions.completeAll()
                return connection
            } catch {
                lastError = "\(error)"
                // Writes waiting for their changes return now rather than wait out the outage: the resync
                // published on reconnection covers them (``PostgresStore/write(_:)`` documents this).
                if attempt == 1 { completions.completeAll() }
                attempt += 1
                delay = min(delay * 2, options.reconnectBackoff.upperBound)
            }
        }
    }

    /// Waits `delay`, or less when ``stop()`` is called; returns whether it was. (A check asked for meanwhile
    /// has nothing to check: the listener is reconnecting.)
    private func waitForStop(_ delay: Duration) -> Bool {
        let deadline = ContinuousClock.now + delay
        while true {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return false }
            var fds = [pollfd(fd: wakePipe.read, events: Int16(POLLIN), revents: 0)]
            if poll(&fds, 1, max(Self.milliseconds(left), 1)) > 0, takeWake() { return true }
        }
    }

    /// `poll()` for a period shorter than its millisecond resolution: checks without waiting, then sleeps
    /// 25 µs at a time until `period` has passed.
    private static func pollBriefly(_ fds: inout [pollfd], for period: Duration) -> Int32 {
        let deadline = ContinuousClock.now + period
        while true {
            let ready = poll(&fds, nfds_t(fds.count), 0)
            if ready != 0 || ContinuousClock.now >= deadline { return ready }
            usleep(25)
        }
    }

    /// `duration` in whole milliseconds, for `poll()`.
    static func milliseconds(_ duration: Duration) -> Int32 {
        Int32(clamping: duration.components.seconds * 1_000 + duration.components.attoseconds / 1_000_000_000_000_000)
    }

    private func didExit() {
        let waiters = exited.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.done = true
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}

/// The notifications of one server transaction, folded into one change per table.
struct TransactionGroup {
    var transactionID: Int64?
    var tables: [String: TableChange] = [:]

    mutating func add(_ notification: PostgresNotification) {
        transactionID = notification.transactionID
        var change = tables[notification.table] ?? TableChange()
        if let keys = notification.keys {
            for key in keys { change.record(notification.operation, key: key) }
        } else {
            change.isWholeTable = true
        }
        tables[notification.table] = change
    }

    /// Publishes the group as one change (if it holds any) and empties it.
    mutating func flush(to feed: ChangeFeed) {
        if !tables.isEmpty { feed.publish(tables) }
        tables = [:]
        transactionID = nil
    }
}
