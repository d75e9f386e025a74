import FetchKit
import FetchKitInMemory
import FetchKitTesting
import Synchronization

/// An in-memory store whose reads a test can hold at a gate, or make fail: the real controller, its machine and
/// its interpreter run over it, and the test decides when its reads return and whether they work (its feed is the
/// in-memory store's, which the test interrupts, resumes and closes).
final class GatedStore: Sendable {
    let base: InMemoryStore
    let store: InterceptingStore
    private let gate: ReadGate

    init(_ base: InMemoryStore) {
        let gate = ReadGate()
        self.base = base
        self.gate = gate
        store = InterceptingStore(
            base, beforeClose: { gate.release() },
            beforeRead: {
                await gate.pass()
                if gate.isFailing { throw FetchKitError.connectionLost("the test made reads fail") }
            })
    }

    /// Reads throw a transient error from now on (`true`), or work again.
    func failReads(_ failing: Bool) { gate.setFailing(failing) }

    /// Reads wait at the gate from now on.
    func holdReads() { gate.hold() }

    /// Lets every read through, those waiting first.
    func releaseReads() { gate.release() }
}

/// Where reads wait while a test holds them.
final class ReadGate: Sendable {
    private struct State {
        var isHeld = false
        var isFailing = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// Whether reads that pass the gate fail.
    var isFailing: Bool { state.withLock { $0.isFailing } }

    func setFailing(_ failing: Bool) {
        state.withLock { $0.isFailing = failing }
    }

    func hold() {
        state.withLock { $0.isHeld = true }
    }

    func release() {
        let waiting = state.withLock { state in
            state.isHeld = false
            defer { state.waiting = [] }
            return state.waiting
        }
        for reader in waiting { reader.resume() }
    }

    /// Returns at once unless the gate is held; then once it is released.
    func pass() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let held = state.withLock { state in
                if state.isHeld { state.waiting.append(continuation) }
                return state.isHeld
            }
            if !held { continuation.resume() }
        }
    }
}
