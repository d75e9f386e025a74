import CLibPQ
import FetchKit
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a change source's thread and the store share: the pipe that wakes the thread from its wait, the stop
/// request, the thread's exit, and the state it reports with its subscribers.
final class ChangeSourceThread: Sendable {
    /// The wait (``DescriptorWait``) watches the read end; ``requestStop()`` and ``wake()`` write to the other.
    let wakePipe: (read: Int32, write: Int32)
    private let stopRequested = Mutex(false)
    private let exited = Mutex<(done: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))
    private let currentState: Mutex<PostgresListener.State>
    private let stateSubscribers = Mutex<[Int: AsyncStream<PostgresListener.State>.Continuation]>([:])

    /// - Throws: ``FetchKitError/Code/connectionLost`` when the pipe cannot be made.
    init(initialState: PostgresListener.State) throws {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            throw FetchKitError.connectionLost("could not create a change source's wake pipe")
        }
        wakePipe = (fds[0], fds[1])
        currentState = Mutex(initialState)
    }

    deinit {
        close(wakePipe.read)
        close(wakePipe.write)
    }

    /// Starts `body` on a thread named `name`; when it returns, the thread has exited.
    func start(name: String, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread { [self] in
            Thread.current.name = name
            body()
            didExit()
        }
        thread.start()
    }

    /// What ended a wait for input (``waitForInput(on:until:)``).
    enum WaitResult {
        /// The connection's socket is readable.
        case readable
        /// The deadline passed, or there was no connection to read.
        case timedOut
        /// ``stop()`` (`stopRequested`) or ``wake()`` woke the thread.
        case woken(stopRequested: Bool)
        /// A signal interrupted the wait: wait again.
        case interrupted
        /// The wait failed, for this reason.
        case failed(String)
    }

    /// Waits until `connection`'s socket is readable, the thread is woken, or `deadline` passes (``DescriptorWait``).
    func waitForInput(on connection: PostgresConnection?, until deadline: ContinuousClock.Instant?) -> WaitResult {
        var fds = [pollfd(fd: wakePipe.read, events: Int16(POLLIN), revents: 0)]
        if let connection {
            let socket = PQsocket(connection.handle)
            guard socket >= 0 else { return .failed("the connection has no socket") }
            fds.append(pollfd(fd: socket, events: Int16(POLLIN), revents: 0))
        }
        let ready = DescriptorWait.wait(&fds, until: deadline)
        if ready < 0 {
            let error = errno
            return error == EINTR ? .interrupted : .failed("poll failed (errno \(error))")
        }
        if fds[0].revents != 0 { return .woken(stopRequested: takeWake()) }
        return ready > 0 && connection != nil ? .readable : .timedOut
    }

    /// Wakes the thread from its wait.
    func wake() {
        var byte: UInt8 = 1
        _ = write(wakePipe.write, &byte, 1)
    }

    /// Asks the thread to stop, and waits until it has.
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

    /// What the source is doing now.
    var state: PostgresListener.State { currentState.withLock { $0 } }

    /// The source's state now, then every change of it, until it stops.
    func stateUpdates() -> AsyncStream<PostgresListener.State> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: PostgresListener.State.self, bufferingPolicy: .unbounded)
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

    /// Records the source's new state and tells every subscriber; ``PostgresListener/State/stopped`` ends them.
    func setState(_ state: PostgresListener.State) {
        let finished = stateSubscribers.withLock { subscribers -> [AsyncStream<PostgresListener.State>.Continuation] in
            currentState.withLock { $0 = state }
            for continuation in subscribers.values { continuation.yield(state) }
            guard state == .stopped else { return [] }
            defer { subscribers.removeAll() }
            return Array(subscribers.values)
        }
        for continuation in finished { continuation.finish() }
    }
}
