/// The reusable `Decoder` behind ``RecordDecoder``: the current row's reader and the plan that maps
/// each coding key, in the order `init(from:)` asks for it, to a column.
///
/// Synthesized `Codable` asks for the same keys in the same order for every row. The first row of a
/// layout is decoded in *learning* mode, which finds each key's column through the reader and records
/// it; later rows are decoded in *planned* mode, reading each key's planned column by position. When a
/// record asks for a different key than planned (custom `init(from:)` that branches), the row is decoded
/// again in learning mode, so the plan only ever speeds decoding up.
///
/// ``RowDecodable`` records read through the same plan (their `init(row:)` reads by attribute name);
/// a read the plan does not expect finds its column by name and corrects the plan.
///
/// Properties read the reader's typed columns (``ColumnReader/text(at:)`` …) and fall back to
/// ``ColumnReader/value(at:)`` only for conversions, nulls and errors.
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

    /// One step of the plan: the key `init(from:)` asks for, and its column (-1 when the reader has none).
    struct Slot {
        var key: String
        var column: Int
    }

    /// The entity's name, for error messages.
    @usableFromInline let entity: String
    /// The entity's attribute names, in the entity's order: for `allKeys`, and for positional reads.
    @usableFromInline let attributes: [String]

    /// The current row (held strongly).
    @exclusivity(unchecked) private var box: ReaderBox
    /// The current row, as column reads reach it: unretained (``box`` holds it), so a read costs no
    /// reference counting.
    @exclusivity(unchecked) private var current: Unmanaged<ReaderBox>
    /// The object the reader is, when it is a class instance: a reader reused for every row is
    /// boxed once, not once per row.
    @usableFromInline @exclusivity(unchecked) var readerIdentity: ObjectIdentifier?
    /// The box ``Row`` readers share.
    @usableFromInline let rowBox = RowBox()
    /// The empty row, current between decodes.
    private let noRow: ReaderBox
    /// Memory for one record, where ``RowDecodable`` records are made before they are moved out.
    private let recordMemory: UnsafeMutableRawPointer
    /// The keys and columns, in the order `init(from:)` asks for them.
    @exclusivity(unchecked) var plan: ContiguousArray<Slot> = []
    /// The next slot `init(from:)` will ask for.
    @exclusivity(unchecked) var cursor = 0
    /// The layout the plan belongs to (held, so its identity stays unique), and whether the plan is complete.
    private var layout: AnyObject?
    @exclusivity(unchecked) var isPlanned = false
    /// Whether the current row is decoded in learning mode (finding columns by name).
    @exclusivity(unchecked) var isLearning = false
    /// Set in planned mode when the record left the plan, even if it swallowed the error: the row is
    /// then decoded again, learning.
    @exclusivity(unchecked) private var isBroken = false
    /// Whether the current row is read by a ``RowDecodable`` record: a read the plan does not expect
    /// finds its column by name and corrects the plan, instead of restarting the row.
    @exclusivity(unchecked) var isReadingRow = false
    /// Each attribute's column by the attribute's position in the entity (-1: the reader has none), for
    /// positional reads; empty until the first positional read of a layout.
    @usableFromInline @exclusivity(unchecked) var positions: ContiguousArray<Int> = []
    /// The attributes the reader has columns for, once `allKeys` was asked for this layout.
    private var presentAttributes: [String]?
    /// The keyed container handed out for the last key type, reused across rows.
    @exclusivity(unchecked) private var containerKeyType: ObjectIdentifier?
    /// A `ContainerHolder<Key>` whose `Key` is `containerKeyType`.
    @exclusivity(unchecked) private var container: AnyObject?
    /// Whether a record kept a container this state handed out (the state must then never be freed).
    private(set) var containerEscaped = false

    /// Creates the state for records of `type`.
    @usableFromInline
    init<R: Record>(for type: R.Type) {
        let entity = R.entity
        self.entity = entity.name
        self.attributes = entity.attributes.map(\.name)
        let empty = ReaderBox()
        noRow = empty
        box = empty
        current = .passUnretained(empty)
        recordMemory = .allocate(byteCount: max(1, MemoryLayout<R>.size), alignment: MemoryLayout<R>.alignment)
    }

    deinit {
        recordMemory.deallocate()
    }

    /// Lets go of the cached container and the last reader, when the state's owner is done with it.
    ///
    /// Containers refer to the state unretained. If a record kept one past `init(from:)`, the state
    /// deliberately stays alive (it is leaked), so that container never reads freed memory.
    @usableFromInline
    func release() {
        dropContainer()
        forgetReader()
        if containerEscaped { _ = Unmanaged.passRetained(self) }
    }

    // MARK: Rows

    /// Makes `reader` the current row: a class instance already current is kept, a ``RowColumns`` goes into
    /// the shared row box, any other reader into a box of its own.
    @inlinable @inline(__always)
    func use<Reader: ColumnReader>(_ reader: Reader) {
        if Reader.self is AnyObject.Type {
            let identity = ObjectIdentifier(unsafeBitCast(reader, to: AnyObject.self))
            if identity == readerIdentity { return }
            read(from: TypedReaderBox(reader))
            readerIdentity = identity
        } else if Reader.self == RowColumns.self {
            rowBox.row = unsafeBitCast(reader, to: RowColumns.self).row
            read(from: rowBox)
        } else {
            read(from: TypedReaderBox(reader))
        }
    }

    /// Makes `box` the current row.
    @usableFromInline
    func read(from box: ReaderBox) {
        if box !== self.box {
            self.box = box
            current = .passUnretained(box)
        }
        readerIdentity = nil
    }

    /// Lets go of the current reader (a decode that keeps no state between calls).
    @usableFromInline
    func forgetReader() {
        read(from: noRow)
        rowBox.row = Self.emptyRow
    }

    /// A row without columns, for the row box between decodes.
    private static let emptyRow = Row(layout: RowLayout(names: []), values: [])

    /// Reads the current row (without retaining it).
    @inline(__always)
    func withRow<T>(_ body: (ReaderBox) throws -> T) rethrows -> T {
        try current._withUnsafeGuaranteedRef(body)
    }

    /// Starts a row; `true` when the plan holds for the layout `object`.
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
        positions = []
    }

    /// Decodes the current row by the plan.
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

    /// Decodes the current row finding each key's column by name, and records the plan for the rows
    /// that follow.
    @usableFromInline
    func decodeLearning<R: Record>(_ type: R.Type) throws -> R {
        cursor = 0
        isPlanned = false
        isLearning = true
        defer { isLearning = false }
        do {
            let record = try R(from: self)
            plan.removeSubrange(cursor...)
            isPlanned = true
            return record
        } catch {
            throw mapped(error)
        }
    }

    /// Decodes the current row into a ``RowDecodable`` record, by plan when `planned`, else learning
    /// the plan.
    ///
    /// `rowType` is `R`, known to conform: the record is made by ``make(_:into:)`` in the state's
    /// memory for one record and moved out, so no copy of it is retained and released.
    @usableFromInline
    func decodeRow<R: Record>(_ rowType: any RowDecodable.Type, as type: R.Type, planned: Bool) throws -> R {
        beginRow(planned: planned)
        do {
            try make(rowType, into: recordMemory)
            let record = recordMemory.assumingMemoryBound(to: R.self).move()
            endRow(planned: planned)
            return record
        } catch {
            throw failedRow(error)
        }
    }

    /// Initializes the memory at `pointer` with a `D` read from the current row.
    private func make<D: RowDecodable>(_ type: D.Type, into pointer: UnsafeMutableRawPointer) throws {
        let row = RecordRow(state: self)
        pointer.initializeMemory(as: D.self, to: try D(row: row))
    }

    /// A record's error as FetchKit reports it: `PlanMismatch` and `FetchKitError` as they are,
    /// anything else (a `DecodingError` from the record's own code) as a record-mapping error.
    func mapped(_ error: any Error) -> any Error {
        if error is PlanMismatch || error is FetchKitError { return error }
        return FetchKitError.recordMapping(entity: entity, detail: RecordCoding.describe(error))
    }

    // MARK: Slots

    /// The column of the next slot, which must be `key`'s; -1 when the reader has no column for it.
    @inline(__always)
    func column(for key: String) throws -> Int {
        let slot = cursor
        cursor = slot &+ 1
        if !isLearning, slot < plan.count, plan[slot].key == key { return plan[slot].column }
        if isLearning || isReadingRow { return learn(key, at: slot) }
        throw leftThePlan()
    }

    /// Marks the row for learning, in case the record swallows the error (`try?`): its result is discarded.
    @inline(never)
    private func leftThePlan() -> PlanMismatch {
        isBroken = true
        return PlanMismatch()
    }

    /// Whether the reader has a column for `key`, as the next slot.
    func contains(_ key: String) -> Bool {
        ((try? column(for: key)) ?? -1) >= 0
    }

    /// The attributes the reader has columns for.
    func presentAttributeNames() -> [String] {
        if let presentAttributes { return presentAttributes }
        let present = withRow { row in attributes.filter { row.columnIndex(of: $0) != nil } }
        presentAttributes = present
        return present
    }

    @inline(never)
    private func learn(_ key: String, at slot: Int) -> Int {
        let column = withRow { $0.columnIndex(of: key) } ?? -1
        if slot < plan.count {
            plan[slot] = Slot(key: key, column: column)
        } else {
            plan.append(Slot(key: key, column: column))
        }
        return column
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
        dropContainer()
        let holder = ContainerHolder(KeyedDecodingContainer(RecordKeyedDecodingContainer<Key>(state: self)))
        container = holder
        containerKeyType = ObjectIdentifier(type)
        return holder.container
    }

    /// Releases the cached container, noting whether a record still holds it.
    private func dropContainer() {
        guard var box = takeContainer() else { return }
        // The holder is gone: a record holds the container if anyone but `box` holds its storage.
        if box == nil || !isKnownUniquelyReferenced(&box) { containerEscaped = true }
    }

    /// Forgets the cached container, returning its storage object (nil inside when it is unknown),
    /// or nil when there is none.
    private func takeContainer() -> AnyObject?? {
        guard let holder = container.map({ unsafeDowncast($0, to: ContainerHolderBase.self) }) else { return nil }
        container = nil
        containerKeyType = nil
        return .some(holder.box)
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

/// Keeps a keyed container between rows, and its storage object, so the state can tell when it is
/// released whether a record still holds the container.
class ContainerHolderBase {
    /// The container's storage object, found by reflection; nil when it cannot be found.
    final let box: AnyObject?

    init(box: AnyObject?) { self.box = box }
}

/// The keyed container for one key type.
final class ContainerHolder<Key: CodingKey>: ContainerHolderBase {
    let container: KeyedDecodingContainer<Key>

    init(_ container: KeyedDecodingContainer<Key>) {
        self.container = container
        let box = Mirror(reflecting: container).children.lazy.compactMap { child -> AnyObject? in
            type(of: child.value) is AnyObject.Type ? child.value as AnyObject : nil
        }.first
        super.init(box: box)
    }
}
