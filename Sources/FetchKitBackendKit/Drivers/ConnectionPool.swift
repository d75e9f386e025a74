import FetchKit
import Synchronization

/// One or more connections, each on its own ``ConnectionThread``, sharing one ``JobQueue``.
///
/// The writer is a pool of one; the readers a pool of `readerCount`. A job runs on whichever
/// thread is free first; on a pool of one, jobs run one after another in submission order.
public final class ConnectionPool<Connection: DriverConnection>: Sendable {
    private struct Lifetime {
        var running = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    /// The pool's name (threads are named `name-0`, `name-1`, …).
    public let name: String
    /// How many connections the pool has.
    public let size: Int
    private let queue = JobQueue<Connection>()
    private let lifetime = Mutex(Lifetime())
    /// `fetchkit_pool_wait_seconds`: how long each job waited for a free connection (`nil`: not measured).
    private let waits: MetricsTimer?

    private init(name: String, size: Int, waits: MetricsTimer?) {
        self.name = name
        self.size = size
        self.waits = waits
    }

    /// Starts `size` threads, opening their connections one after another with `open(index)`; with
    /// `waitDimensions`, how long each job waits for a free connection is recorded in `fetchkit_pool_wait_seconds`
    /// with those dimensions (a store's: `[("store", label), ("pool", "reader")]`).
    ///
    /// - Throws: the first opening error; threads already started are shut down first.
    public static func start(
        name: String, size: Int, waitDimensions: [(String, String)]? = nil,
        open: @escaping @Sendable (Int) throws -> Connection
    ) async throws -> ConnectionPool {
        let waits = waitDimensions.map { MetricsMaker().timer("fetchkit_pool_wait_seconds", $0) }
        let pool = ConnectionPool(name: name, size: size, waits: waits)
        do {
            for index in 0..<size {
                pool.lifetime.withLock { $0.running += 1 }
                try await ConnectionThread.start(
                    name: "\(name)-\(index)", queue: pool.queue, open: { try open(index) },
                    onExit: { [pool] in pool.threadDidExit() })
            }
        } catch {
            await pool.shutDown()
            throw error
        }
        return pool
    }

    /// Runs `body` on one of the pool's threads with its connection and returns its result.
    ///
    /// - Throws: what `body` throws, or ``FetchKitError/closed`` once the pool is shut down.
    public func run<T: Sendable>(_ body: @escaping @Sendable (Connection) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let submitted = waits == nil ? nil : ContinuousClock.now
            let accepted = queue.submit { [waits] connection in
                if let waits, let submitted { waits.record(.now - submitted) }
                continuation.resume(with: Result { try body(connection) })
            }
            if !accepted { continuation.resume(throwing: FetchKitError.closed) }
        }
    }

    /// Whether the pool was shut down.
    public var isClosed: Bool { queue.isClosed }

    /// Refuses new jobs, lets queued ones finish, closes every connection and waits for the threads to end.
    public func shutDown() async {
        queue.shutDown()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = lifetime.withLock { state -> Bool in
                if state.running == 0 { return true }
                state.waiters.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }

    /// Refuses new jobs; the threads finish queued ones and end on their own.
    public func shutDownWithoutWaiting() {
        queue.shutDown()
    }

    private func threadDidExit() {
        let waiters = lifetime.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.running -= 1
            guard state.running == 0 else { return [] }
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
