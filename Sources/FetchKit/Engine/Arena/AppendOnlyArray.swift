/// An array that only grows at its end, whose copies share their storage: appending to the newest copy
/// never copies what the older ones hold, so an append is O(1) even while old copies are alive.
///
/// Elements live in chunks of 1,024 slots listed by a directory, both ``AppendOnlyBuffer``s. A copy reads
/// only its first ``count`` slots; appending writes the next slot in place when no other copy wrote it
/// first, else the copy moves to a private copy of its last chunk (and of the directory) — O(1,024), rare.
///
/// ```swift
/// var a = AppendOnlyArray<Int>()
/// a.append(1)
/// let old = a          // shares the chunk
/// a.append(2)          // written in place: `old` never reads slot 1
/// var b = old
/// b.append(3)          // slot 1 is taken: `b` copies the chunk's first slot and appends there
/// (a[1], b[1])         // (2, 3)
/// ```
struct AppendOnlyArray<Element> {
    /// log2 of the slots per chunk.
    private static var chunkShift: Int { 10 }
    private static var chunkCapacity: Int { 1 << chunkShift }
    /// The capacity of a first chunk, which grows by doubling: small results stay small.
    private static var firstChunkCapacity: Int { 4 }

    /// The chunks; `nil` until the first append, so an empty array allocates nothing.
    private var directory: AppendOnlyBuffer<AppendOnlyBuffer<Element>>?
    /// The number of elements.
    private(set) var count = 0
    /// The first chunk, sized by ``init(reservingCapacity:)``, until the first append takes it.
    private var reserved: AppendOnlyBuffer<Element>?

    /// An empty array.
    init() {}

    /// An empty array whose first `capacity` elements (up to a chunk's 1,024) fit without growing.
    init(reservingCapacity capacity: Int) {
        if capacity > 0 { reserved = AppendOnlyBuffer(capacity: Swift.min(capacity, Self.chunkCapacity)) }
    }

    /// The element at `index` (in `0..<count`).
    ///
    /// - Complexity: O(1).
    @inline(__always)
    subscript(index: Int) -> Element {
        directory.unsafelyUnwrapped.base[index &>> Self.chunkShift].base[index & (Self.chunkCapacity - 1)]
    }

    /// Appends `element`; its index is the old ``count``.
    ///
    /// - Complexity: O(1), but O(1,024) when another copy appended to the same chunk first.
    mutating func append(_ element: Element) {
        let chunkIndex = count &>> Self.chunkShift
        let slot = count & (Self.chunkCapacity - 1)
        if slot == 0 {
            // The reserved chunk, unless a copy of this array appended to it first.
            let reserved = chunkIndex == 0 ? self.reserved.take() : nil
            if let reserved, reserved.append(element, at: 0) {
                setChunk(reserved, at: chunkIndex)
            } else {
                let chunk = AppendOnlyBuffer<Element>(
                    capacity: chunkIndex == 0 ? Self.firstChunkCapacity : Self.chunkCapacity)
                _ = chunk.append(element, at: 0)
                setChunk(chunk, at: chunkIndex)
            }
        } else {
            let chunk = directory.unsafelyUnwrapped.base[chunkIndex]
            if !chunk.append(element, at: slot) {
                let capacity =
                    slot < chunk.capacity ? chunk.capacity : Swift.min(chunk.capacity * 2, Self.chunkCapacity)
                let copy = chunk.prefix(slot, capacity: capacity)
                _ = copy.append(element, at: slot)
                setChunk(copy, at: chunkIndex)
            }
        }
        count += 1
    }

    /// Makes `chunk` the directory's entry `index` (the last one, or one past it), copying the directory
    /// when the slot is not this array's to write.
    private mutating func setChunk(_ chunk: AppendOnlyBuffer<Element>, at index: Int) {
        guard let directory else {
            let first = AppendOnlyBuffer<AppendOnlyBuffer<Element>>(capacity: 1)
            _ = first.append(chunk, at: 0)
            self.directory = first
            return
        }
        let chunks = (count + Self.chunkCapacity - 1) &>> Self.chunkShift  // directory entries in use
        if index == chunks, directory.append(chunk, at: index) { return }
        let capacity = Swift.max(4, directory.capacity * (index < directory.capacity ? 1 : 2))
        let copy = directory.prefix(index, capacity: capacity)
        _ = copy.append(chunk, at: index)
        self.directory = copy
    }
}

/// A copy reads only slots that no copy writes again (see ``AppendOnlyBuffer``).
extension AppendOnlyArray: @unchecked Sendable where Element: Sendable {}
