import Synchronization

/// A fixed-capacity buffer that only grows at its end, shared by several ``AppendOnlyArray`` values: each
/// reads only the slots below its own count, and the one whose count ends where the buffer's filled slots
/// end may claim the next slot and write it in place. Whoever finds its slot taken (another value appended
/// first) or the buffer full copies its prefix into a new buffer.
///
/// `@unchecked Sendable`: a slot is written once, by the value that claimed it (the claim is atomic), before
/// any value that can read it exists; every other access is a read of a slot that no longer changes.
final class AppendOnlyBuffer<Element> {
    /// How many slots the buffer has.
    let capacity: Int
    /// The slots; the first `filled` are initialised.
    let base: UnsafeMutablePointer<Element>
    /// How many slots are claimed.
    private let filled: Atomic<Int>

    /// An empty buffer of `capacity` slots.
    init(capacity: Int) {
        self.capacity = capacity
        self.base = UnsafeMutablePointer.allocate(capacity: capacity)
        self.filled = Atomic(0)
    }

    deinit {
        base.deinitialize(count: filled.load(ordering: .relaxed))
        base.deallocate()
    }

    /// Writes `element` into slot `index` if it is the next free one; `false` (nothing written) when the
    /// buffer is full or another value claimed the slot first.
    func append(_ element: Element, at index: Int) -> Bool {
        guard index < capacity,
            filled.compareExchange(expected: index, desired: index + 1, ordering: .relaxed).exchanged
        else { return false }
        (base + index).initialize(to: element)
        return true
    }

    /// A new buffer of `capacity` slots holding copies of the first `count` slots of this one.
    ///
    /// - Complexity: O(`count`).
    func prefix(_ count: Int, capacity: Int) -> AppendOnlyBuffer<Element> {
        let copy = AppendOnlyBuffer(capacity: capacity)
        copy.base.initialize(from: base, count: count)
        copy.filled.store(count, ordering: .relaxed)
        return copy
    }
}

extension AppendOnlyBuffer: @unchecked Sendable where Element: Sendable {}
