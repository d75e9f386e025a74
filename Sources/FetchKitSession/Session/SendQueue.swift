import Synchronization

/// One send at a time, in the order callers arrive: the session's batches, acknowledgements and statuses share
/// one socket, and each caller waits for its own send — so nothing queues beyond one message per caller.
final class SendQueue: Sendable {
    private struct State {
        var busy = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())
    private let transport: any SessionTransport

    init(_ transport: any SessionTransport) {
        self.transport = transport
    }

    /// Sends `text` once every send before it is done; returns when the transport took it.
    func send(_ text: String) async throws {
        await acquire()
        defer { release() }
        try await transport.send(text)
    }

    /// Closes the socket after every send before it.
    func close(_ code: SessionCloseCode, reason: String) async {
        await acquire()
        defer { release() }
        await transport.close(code, reason: reason)
    }

    private func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                guard state.busy else {
                    state.busy = true
                    return true
                }
                state.waiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    private func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiters.isEmpty else {
                state.busy = false
                return nil
            }
            // The next caller takes the queue over: it stays busy.
            return state.waiters.removeFirst()
        }
        next?.resume()
    }
}
