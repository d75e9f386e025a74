/// The reusable `Decoder` behind ``RecordDecoder``: the current row's values and the plan that maps
/// each coding key, in the order `init(from:)` asks for it, to a column.
///
/// Synthesized `Codable` asks for the same keys in the same order for every row. The first row of a
/// layout is decoded in *learning* mode, which finds each key's column through the reader and records
/// it; later rows are decoded in *planned* mode from values loaded by position. When a record asks for
/// a different key than planned (custom `init(from:)` that branches), the row is decoded again in
/// learning mode, so the plan only ever speeds decoding up.
///
/// `@unchecked Sendable`: a state is used by one thread at a time, either owned by one ``RecordDecoder``
/// (documented as not thread-safe) or checked out of the idle pool (under its lock) for one decode.
/// The hot properties skip dynamic exclusivity checks: nothing they call back into touches them.
@usableFromInline
final class RecordDecodingState: Decoder, @unchecked Sendable {
    /// Thrown by planned decoding when the record asks for an unplanned key.
    @usableFromInline
    struct PlanMismatch: Error {
        @usableFromInline init() {}
    }

    /// The entity's name, for error messages.
    let entity: String
    /// The entity's attribute names, for `allKeys`.
    let attributes: [String]

    /// The coding key of each slot.
    @usableFromInline @exclusivity(unchecked) var keys: [String] = []
    /// The column of each slot's key, or -1 when the reader has none.
    @usableFromInline @exclusivity(unchecked) var columns: [Int] = []
    /// The current row's value of each slot (meaningless where the column is -1).
    @usableFromInline @exclusivity(unchecked) var values: [Value] = []
    /// The next slot `init(from:)` will ask for.
    @exclusivity(unchecked) var cursor = 0
    /// The layout the plan belongs to (held, so its identity stays unique), and whether the plan is complete.
    private var layout: AnyObject?
    private var isPlanned = false
    /// Whether the current row is decoded in learning mode (through `reader`).
    @exclusivity(unchecked) private var isLearning = false
    /// The reader, in learning mode only.
    private var reader: (any ColumnReader)?
    /// Set in planned mode when the record left the plan, even if it swallowed the error: the row is
    /// then decoded again, learning.
    @exclusivity(unchecked) private var isBroken = false
    /// The attributes the reader has columns for, once `allKeys` was asked for this layout.
    private var presentAttributes: [String]?
    /// The keyed container handed out for the last key type, reused across rows.
    private var containerKeyType: ObjectIdentifier?
    /// A `ContainerHolder<Key>` whose `Key` is `containerKeyType`.
    private var container: AnyObject?

    /// Creates the state for records of `type`.
    @usableFromInline
    init<R: Record>(for type: R.Type) {
        let entity = R.entity
        self.entity = entity.name
        self.attributes = entity.attributes.map(\.name)
    }

    /// Breaks the cycle through the cached container (it refers back to this state).
    func release() {
        container = nil
        containerKeyType = nil
    }

    // MARK: Rows

    /// Starts a row; `true` when the plan holds for the layout `object`, so the caller loads `values`.
    @usableFromInline
    func begin(layout object: AnyObject?) -> Bool {
        if object !== layout {
            layout = object
            forget()
        }
        return isPlanned
    }

    /// Forgets the plan (the next row is decoded learning).
    @usableFromInline
    func forget() {
        isPlanned = false
        presentAttributes = nil
    }

    /// Decodes from the loaded values.
    ///
    /// - Throws: ``PlanMismatch`` when the record left the plan (decode the row again, learning); any
    ///   other error is the record's.
    @usableFromInline
    func decodePlanned<R: Record>(_ type: R.Type) throws -> R {
        cursor = 0
        isBroken = false
        do {
            let record = try R(from: self)
            if isBroken { throw PlanMismatch() }
            return record
        } catch {
            throw isBroken ? PlanMismatch() : mapped(error)
        }
    }

    /// Decodes through the reader's own lookups, and records the plan for the rows that follow.
    @usableFromInline
    func decodeLearning<R: Record>(_ type: R.Type, from reader: any ColumnReader) throws -> R {
        cursor = 0
        isPlanned = false
        self.reader = reader
        isLearning = true
        defer {
            self.reader = nil
            isLearning = false
        }
        do {
            let record = try R(from: self)
            keys.removeSubrange(cursor...)
            columns.removeSubrange(cursor...)
            values.removeSubrange(cursor...)
            isPlanned = true
            return record
        } catch {
            throw mapped(error)
        }
    }

    /// A record's error as FetchKit reports it: `PlanMismatch` and `FetchKitError` as they are,
    /// anything else (a `DecodingError` from the record's own code) as a record-mapping error.
    private func mapped(_ error: any Error) -> any Error {
        if error is PlanMismatch || error is FetchKitError { return error }
        return FetchKitError.recordMapping(entity: entity, detail: RecordCoding.describe(error))
    }

    // MARK: Slots

    /// The value of the next slot, which must be `key`'s; nil when the reader has no column for it.
    @inline(__always)
    func value(for key: String) throws -> Value? {
        let slot = cursor
        cursor = slot &+ 1
        if isLearning { return learn(key, at: slot) }
        guard slot < keys.count, keys[slot] == key else {
            // Also marked, in case the record swallows the error (`try?`): the result is discarded.
            isBroken = true
            throw PlanMismatch()
        }
        return columns[slot] < 0 ? nil : values[slot]
    }

    /// Whether the reader has a column for `key`, as the next slot.
    func contains(_ key: String) -> Bool {
        (try? value(for: key)) != nil
    }

    /// The attributes the reader has columns for.
    func presentAttributeNames() -> [String] {
        if let presentAttributes { return presentAttributes }
        guard let reader else {
            isBroken = true
            return []
        }
        let present = attributes.filter { reader.columnIndex(of: $0) != nil }
        presentAttributes = present
        return present
    }

    @inline(never)
    private func learn(_ key: String, at slot: Int) -> Value? {
        let column = reader?.columnIndex(of: key)
        let value = column.flatMap { reader?.value(at: $0) }
        if slot < keys.count {
            keys[slot] = key
            columns[slot] = column ?? -1
            values[slot] = value ?? .null
        } else {
            keys.append(key)
            columns.append(column ?? -1)
            values.append(value ?? .null)
        }
        return value
    }

    // MARK: Decoder

    @usableFromInline var codingPath: [any CodingKey] { [] }
    @usableFromInline var userInfo: [CodingUserInfoKey: Any] { [:] }

    @usableFromInline
    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        // Reuse the last container: creating one costs two runtime metadata lookups and an allocation.
        if let container, containerKeyType == ObjectIdentifier(type) {
            return unsafeDowncast(container, to: ContainerHolder<Key>.self).container
        }
        let holder = ContainerHolder(KeyedDecodingContainer(RecordKeyedDecodingContainer<Key>(state: self)))
        container = holder
        containerKeyType = ObjectIdentifier(type)
        return holder.container
    }

    @usableFromInline
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw FetchKitError.recordMapping(entity: entity, detail: "a record decodes from keyed attributes, not a list")
    }

    @usableFromInline
    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw FetchKitError.recordMapping(
            entity: entity, detail: "a record decodes from keyed attributes, not a single value")
    }
}

/// Keeps a keyed container between rows (it refers to the state, which holds the row).
final class ContainerHolder<Key: CodingKey> {
    let container: KeyedDecodingContainer<Key>
    init(_ container: KeyedDecodingContainer<Key>) { self.container = container }
}
