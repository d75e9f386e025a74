import CoreMetrics
@_spi(Backend) import FetchKit
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
/// It runs on a thread of its own (``Loop``): `poll()` on the connection's socket (and on a pipe that
/// ``stop()`` writes to), then `PQconsumeInput` and `PQnotifies`; what to make of it — states, grouping,
/// pings, backoff, resyncs — is ``ListenerStateMachine``'s to decide. Notifications of one transaction (the same server
/// transaction ID, delivered together at commit) become one change: a ``PostgresStore`` write ends its
/// transaction with a marker that closes the change at once; another client's transaction is closed when a
/// notification of another transaction arrives or its burst ends (``PostgresStore/ListenerOptions/burstQuietPeriod``
/// without input). A payload it cannot parse is logged and
/// published as a resync, never a crash.
///
/// A broken connection is noticed by a failed read, by TCP keepalives, or by a ping (`SELECT 1`) after
/// ``Options/pingInterval`` of silence — or when a write's change is overdue — that goes unanswered for
/// ``Options/pingTimeout`` (a server process that is stopped or stuck); the listener then reconnects with exponential
/// backoff, issues `LISTEN` again and publishes a resync, so every live controller refetches whatever committed
/// during the gap. Its ``state`` says which of those it is doing.
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

    let url: PostgresURL
    let channel: String
    /// The schema whose tables' notifications this listener keeps.
    let schemaName: String
    /// The tables whose primary key is `char(n)`: their keys arrive padded and are read without the padding,
    /// as fetches read them.
    let paddedKeyTables: Set<String>
    let options: PostgresStore.ListenerOptions
    let feed: ChangeFeed
    let logger: Logger
    /// `fetchkit_listener_reconnects_total`: reconnections after the listener lost its connection.
    let reconnects = Counter(label: "fetchkit_listener_reconnects_total")
    private let currentState = Mutex(State.listening)
    /// `poll()` also watches the read end; ``stop()`` and ``checkConnection()`` write to the other.
    let wakePipe: (read: Int32, write: Int32)
    /// Set by ``stop()`` before it wakes the thread (a wake without it asks for a check).
    private let stopRequested = Mutex(false)
    private let exited = Mutex<(done: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))
    let listeningPID = Mutex<Int32?>(nil)
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
                Loop(listener, started: started).run()
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

    func setState(_ state: State) {
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

    private func didExit() {
        let waiters = exited.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.done = true
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
