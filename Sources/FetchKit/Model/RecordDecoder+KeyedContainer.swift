/// Reads a record's properties from the columns of one row.
///
/// Each method hands the key's name to the state, which does the work without generics over `Key`.
///
/// The state is held unretained: `KeyedDecodingContainer` copies its container for every call, and a
/// strong reference would cost a retain and a release per property. The state outlives its containers:
/// it owns the one it hands out, and when it is released while a record still holds that container
/// (kept past `init(from:)`), it stays alive (see ``RecordDecodingState/release()``).
struct RecordKeyedDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let unmanagedState: Unmanaged<RecordDecodingState>

    init(state: RecordDecodingState) {
        unmanagedState = .passUnretained(state)
    }

    /// Runs `body` with the state, without retaining it.
    @inline(__always)
    private func withState<T>(_ body: (RecordDecodingState) throws -> T) rethrows -> T {
        try unmanagedState._withUnsafeGuaranteedRef(body)
    }

    private var state: RecordDecodingState { unmanagedState.takeUnretainedValue() }

    var codingPath: [any CodingKey] { [] }

    var allKeys: [Key] { state.presentAttributeNames().compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { state.contains(key.stringValue) }

    func decodeNil(forKey key: Key) throws -> Bool { try withState { try $0.decodeNil(key.stringValue) } }

    // MARK: Required values

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        try withState { try $0.decodeBool(key.stringValue) }
    }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try withState { try $0.decodeString(key.stringValue) }
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try withState { try $0.decodeDouble(key.stringValue) }
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        try withState { try $0.decodeFloat(key.stringValue) }
    }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try withState { try $0.decodeInt(key.stringValue) } }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
        try withState { try $0.decodeInteger(key.stringValue, type) }
    }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
        try withState { try $0.decodeInteger(key.stringValue, type) }
    }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
        try withState { try $0.decodeInt32(key.stringValue) }
    }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
        try withState { try $0.decodeInt64(key.stringValue) }
    }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
        try withState { try $0.decodeInteger(key.stringValue, type) }
    }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
        try withState { try $0.decodeInteger(key.stringValue, type) }
    }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
        try withState { try $0.decodeInteger(key.stringValue, type) }
    }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
        try withState { try $0.decodeInteger(key.stringValue, type) }
    }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
        try withState { try $0.decodeInteger(key.stringValue, type) }
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try withState { try $0.decodeValue(key.stringValue, type) }
    }

    // MARK: Optional values (one lookup each; a missing column or NULL is nil)

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        try withState { try $0.decodeBoolIfPresent(key.stringValue) }
    }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        try withState { try $0.decodeStringIfPresent(key.stringValue) }
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        try withState { try $0.decodeDoubleIfPresent(key.stringValue) }
    }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
        try withState { try $0.decodeFloatIfPresent(key.stringValue) }
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        try withState { try $0.decodeIntIfPresent(key.stringValue) }
    }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
        try withState { try $0.decodeIntegerIfPresent(key.stringValue, type) }
    }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
        try withState { try $0.decodeIntegerIfPresent(key.stringValue, type) }
    }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
        try withState { try $0.decodeInt32IfPresent(key.stringValue) }
    }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
        try withState { try $0.decodeInt64IfPresent(key.stringValue) }
    }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
        try withState { try $0.decodeIntegerIfPresent(key.stringValue, type) }
    }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
        try withState { try $0.decodeIntegerIfPresent(key.stringValue, type) }
    }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
        try withState { try $0.decodeIntegerIfPresent(key.stringValue, type) }
    }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
        try withState { try $0.decodeIntegerIfPresent(key.stringValue, type) }
    }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
        try withState { try $0.decodeIntegerIfPresent(key.stringValue, type) }
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try withState { try $0.decodeValueIfPresent(key.stringValue, type) }
    }

    // MARK: Nested containers are not attributes

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        throw ValueDecoding.nested(key.stringValue, entity: state.entity)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        throw ValueDecoding.nested(key.stringValue, entity: state.entity)
    }

    func superDecoder() throws -> any Decoder { state }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        throw ValueDecoding.nested(key.stringValue, entity: state.entity)
    }
}
