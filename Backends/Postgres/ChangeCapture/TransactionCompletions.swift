import Synchronization

/// Writes waiting until the listener has published their transaction: a write registers its server
/// transaction ID before `COMMIT` (``expect(_:)``), the listener completes it when the end marker arrives,
/// and the write then awaits it (``wait(for:)``) — so when `write` returns, its change has reached every
/// ``PostgresStore/changes()`` subscriber, as on SQLite.
final class TransactionCompletions: Sendable {
    private enum Entry {
        case pending(CheckedContinuation<Void, Never>?)
        case done
    }

    private let entries = Mutex<[Int64: Entry]>([:])

    /// Registers transaction `id`, before its `COMMIT`.
    func expect(_ id: Int64) {
        entries.withLock { $0[id] = .pending(nil) }
    }

    /// Whether transaction `id` is a store write still waiting for its end marker.
    func isExpected(_ id: Int64) -> Bool {
        entries.withLock { entries in
            if case .pending? = entries[id] { return true }
            return false
        }
    }

    /// Forgets transaction `id` (its commit failed).
    func cancel(_ id: Int64) {
        let waiter = entries.withLock { entries -> CheckedContinuation<Void, Never>? in
            defer { entries[id] = nil }
            if case .pending(let waiter)? = entries[id] { return waiter }
            return nil
        }
        waiter?.resume()
    }

    /// Waits until transaction `id` completed (returns at once if it already did, or was never expected).
    func wait(for id: Int64) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = entries.withLock { entries -> Bool in
                guard case .pending? = entries[id] else {
                    entries[id] = nil
                    return true
                }
                entries[id] = .pending(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    /// Marks transaction `id` complete (the listener read its end marker).
    func complete(_ id: Int64) {
        let waiter = entries.withLock { entries -> CheckedContinuation<Void, Never>? in
            guard case .pending(let waiter)? = entries[id] else { return nil }
            if waiter != nil {
                entries[id] = nil
            } else {
                entries[id] = .done
            }
            return waiter
        }
        waiter?.resume()
    }

    /// Completes every expected transaction (the listener reconnected and published a resync, or stopped).
    func completeAll() {
        let waiters = entries.withLock { entries -> [CheckedContinuation<Void, Never>] in
            // Forgetting an entry makes a later wait(for:) return at once.
            let waiters = entries.values.compactMap { entry -> CheckedContinuation<Void, Never>? in
                if case .pending(let waiter) = entry { return waiter }
                return nil
            }
            entries.removeAll()
            return waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
