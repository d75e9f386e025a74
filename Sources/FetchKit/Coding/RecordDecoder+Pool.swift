import Synchronization

/// Idle decoding states, one per record type, so `RecordCoding.decode` keeps its column plans
/// between calls.
private let idleStates = Mutex<[ObjectIdentifier: RecordDecodingState]>([:])

extension RecordDecodingState {
    /// A state for `type` that no one else uses until it is checked in.
    @usableFromInline
    static func checkOut<R: Record>(_ type: R.Type) -> RecordDecodingState {
        let key = ObjectIdentifier(type)
        return idleStates.withLock { $0.removeValue(forKey: key) } ?? RecordDecodingState(for: type)
    }

    /// Returns `state` to the pool (keeping one state per type), without the caller's reader.
    @usableFromInline
    static func checkIn<R: Record>(_ state: RecordDecodingState, for type: R.Type) {
        state.forgetReader()
        let key = ObjectIdentifier(type)
        let displaced = idleStates.withLock { $0.updateValue(state, forKey: key) }
        displaced?.release()
    }
}
