/// An open-addressing hash table from `Int64` keys to row indexes, built for one diff and then dropped.
///
/// Linear probing over 16-byte slots at a load factor of at most one half, hashed with MurmurHash3's 64-bit
/// finalizer. Several times faster than `Dictionary<Int64, Int32>` (no SipHash, no resizing, no
/// uniqueness bookkeeping): see the diff benchmark.
struct Int64IndexTable: ~Copyable {
    private struct Slot {
        var key: Int64
        /// The row index, or -1 for an empty slot.
        var index: Int32
    }

    private let slots: UnsafeMutablePointer<Slot>
    private let mask: Int

    /// Creates an empty table with room for `count` keys.
    init(count: Int) {
        var capacity = 16
        while capacity < count * 2 { capacity <<= 1 }
        mask = capacity - 1
        slots = .allocate(capacity: capacity)
        slots.initialize(repeating: Slot(key: 0, index: -1), count: capacity)
    }

    deinit {
        slots.deallocate()
    }

    @inline(__always)
    private func home(_ key: Int64) -> Int {
        var h = UInt64(bitPattern: key)
        h ^= h >> 33
        h &*= 0xff51_afd7_ed55_8ccd
        h ^= h >> 33
        h &*= 0xc4ce_b9fe_1a85_ec53
        h ^= h >> 33
        return Int(truncatingIfNeeded: h) & mask
    }

    /// Records `index` for `key` unless the key is already present (the first index wins).
    @inline(__always)
    mutating func insertIfAbsent(_ key: Int64, index: Int32) {
        var position = home(key)
        while slots[position].index >= 0 {
            if slots[position].key == key { return }
            position = (position &+ 1) & mask
        }
        slots[position] = Slot(key: key, index: index)
    }

    /// The index recorded for `key`, or -1.
    @inline(__always)
    func index(of key: Int64) -> Int32 {
        var position = home(key)
        while true {
            let slot = slots[position]
            if slot.index < 0 || slot.key == key { return slot.index }
            position = (position &+ 1) & mask
        }
    }
}
