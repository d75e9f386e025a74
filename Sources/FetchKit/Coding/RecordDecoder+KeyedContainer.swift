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

    /// Runs `body` with the state (unretained) and the key's name; the closure does not depend on
    /// `Key`, so it is inlined.
    @inline(__always)
    private func read<T>(_ key: Key, _ body: (RecordDecodingState, String) throws -> T) rethrows -> T {
        let name = key.stringValue
        return try unmanagedState._withUnsafeGuaranteedRef { try body($0, name) }
    }

    private var state: RecordDecodingState { unmanagedState.takeUnretainedValue() }

    var codingPath: [any CodingKey] { [] }

    var allKeys: [Key] { state.presentAttributeNames().compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { state.contains(key.stringValue) }

    func decodeNil(forKey key: Key) throws -> Bool { try read(key) { try $0.decodeNil($1) } }

    // MARK: Required values

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        try read(key) { try $0.decodeBool($1) }
    }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try read(key) { try $0.decodeString($1) }
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try read(key) { try $0.decodeDouble($1) }
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        try read(key) { try $0.decodeFloat($1) }
    }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try read(key) { try $0.decodeInt($1) } }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
        try read(key) { try $0.decodeInteger($1, type) }
    }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
        try read(key) { try $0.decodeInteger($1, type) }
    }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
        try read(key) { try $0.decodeInt32($1) }
    }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
        try read(key) { try $0.decodeInt64($1) }
    }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
        try read(key) { try $0.decodeInteger($1, type) }
    }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
        try read(key) { try $0.decodeInteger($1, type) }
    }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
        try read(key) { try $0.decodeInteger($1, type) }
    }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
        try read(key) { try $0.decodeInteger($1, type) }
    }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
        try read(key) { try $0.decodeInteger($1, type) }
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try read(key) { try $0.decodeValue($1, type) }
    }

    // MARK: Optional values (one lookup each; a missing column or NULL is nil)

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        try read(key) { try $0.decodeBoolIfPresent($1) }
    }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        try read(key) { try $0.decodeStringIfPresent($1) }
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        try read(key) { try $0.decodeDoubleIfPresent($1) }
    }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
        try read(key) { try $0.decodeFloatIfPresent($1) }
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        try read(key) { try $0.decodeIntIfPresent($1) }
    }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
        try read(key) { try $0.decodeIntegerIfPresent($1, type) }
    }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
        try read(key) { try $0.decodeIntegerIfPresent($1, type) }
    }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
        try read(key) { try $0.decodeInt32IfPresent($1) }
    }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
        try read(key) { try $0.decodeInt64IfPresent($1) }
    }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
        try read(key) { try $0.decodeIntegerIfPresent($1, type) }
    }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
        try read(key) { try $0.decodeIntegerIfPresent($1, type) }
    }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
        try read(key) { try $0.decodeIntegerIfPresent($1, type) }
    }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
        try read(key) { try $0.decodeIntegerIfPresent($1, type) }
    }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
        try read(key) { try $0.decodeIntegerIfPresent($1, type) }
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try read(key) { try $0.decodeValueIfPresent($1, type) }
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
