/// Records collected one at a time in memory that doubles as it fills, moved into an array at the end.
///
/// In code that is generic over `R` without being specialised, appending costs no runtime lookup:
/// only `R`'s own value witnesses move each record. Records not yet moved out are destroyed with the
/// accumulator (as when decoding throws).
public struct RecordAccumulator<R>: ~Copyable {
    private var base: UnsafeMutablePointer<R>?
    private var count = 0
    private var capacity = 0

    /// An empty accumulator.
    public init() {}

    deinit {
        base?.deinitialize(count: count)
        base?.deallocate()
    }

    /// Adds `record` at the end.
    ///
    /// - Complexity: amortised O(1).
    @inline(__always)
    public mutating func append(_ record: consuming R) {
        if count == capacity { grow() }
        guard let base else { return }
        (base + count).initialize(to: record)
        count += 1
    }

    @inline(never)
    private mutating func grow() {
        let grown = UnsafeMutablePointer<R>.allocate(capacity: max(64, capacity * 2))
        if let base {
            grown.moveInitialize(from: base, count: count)
            base.deallocate()
        }
        base = grown
        capacity = max(64, capacity * 2)
    }

    /// The records, in the order they were added.
    ///
    /// - Complexity: O(*n*): one move of every record.
    public consuming func array() -> [R] {
        let (base, count) = (self.base, self.count)
        discard self
        guard let base else { return [] }
        defer { base.deallocate() }
        return [R](unsafeUninitializedCapacity: count) { buffer, initialized in
            if let target = buffer.baseAddress { target.moveInitialize(from: base, count: count) }
            initialized = count
        }
    }
}
