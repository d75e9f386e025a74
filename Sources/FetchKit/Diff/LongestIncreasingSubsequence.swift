/// Longest increasing subsequence by patience sorting, fed one value at a time, over scratch space reused
/// across sequences.
///
/// The diff keeps the rows of a longest increasing subsequence in place and moves the rest, which makes the
/// number of moves minimal: moving one row of 10,000 is one move. Feed the values in order with ``add(_:at:)``,
/// then call ``beginBackward()`` and ``takeBackward(_:at:)`` for the same values in reverse order: it answers
/// whether each belongs to one longest subsequence. ``members(of:)`` does it all for one array of `Int`s, and
/// ``keptInPlace(targets:preferring:)`` is the weighted variant that breaks ties by preference.
struct LongestIncreasingSubsequence: ~Copyable {
    /// For each length k, the smallest value ending an increasing run of length k + 1.
    private let tails: UnsafeMutablePointer<Int32>
    /// For each position, the length of the longest increasing run ending there.
    private let lengths: UnsafeMutablePointer<Int32>
    private let capacity: Int
    /// The length of the longest increasing run so far.
    private(set) var length = 0
    private var wanted: Int32 = 0
    private var bound = Int32.max

    /// Creates scratch space for sequences whose positions lie in `0..<capacity`.
    init(capacity: Int) {
        self.capacity = Swift.max(capacity, 1)
        tails = .allocate(capacity: self.capacity)
        lengths = .allocate(capacity: self.capacity)
    }

    deinit {
        tails.deallocate()
        lengths.deallocate()
    }

    /// Starts a new sequence.
    mutating func reset() {
        length = 0
    }

    /// Adds the next value, at `position` (positions increase; skipped positions are not in the sequence).
    ///
    /// - Complexity: O(1) when `value` extends or ends the current longest run; O(log n) otherwise.
    @inline(__always)
    mutating func add(_ value: Int32, at position: Int) {
        let slot: Int
        if length == 0 || tails[length - 1] < value {
            slot = length
            length += 1
        } else if length == 1 || tails[length - 2] < value {
            // The common case after a value that jumped ahead: it replaces the last tail.
            slot = length - 1
        } else {
            slot = firstTail(notBelow: value, in: length - 1)
        }
        tails[slot] = value
        lengths[position] = Int32(truncatingIfNeeded: slot + 1)
    }

    /// The first of `tails[0..<count]` not below `value` (the last one is not), by branch-free binary search.
    private func firstTail(notBelow value: Int32, in count: Int) -> Int {
        var base = 0
        var remaining = count
        while remaining > 1 {
            let half = remaining >> 1
            base = tails[base + half - 1] < value ? base + half : base
            remaining -= half
        }
        return base
    }

    /// Prepares the backward pass.
    mutating func beginBackward() {
        wanted = Int32(truncatingIfNeeded: length)
        bound = Int32.max
    }

    /// Whether the value at `position` belongs to the chosen longest subsequence; call for every added value,
    /// from the last to the first.
    @inline(__always)
    mutating func takeBackward(_ value: Int32, at position: Int) -> Bool {
        guard wanted > 0, lengths[position] == wanted, value < bound else { return false }
        wanted -= 1
        bound = value
        return true
    }

    /// Chooses one longest subsequence among the values added since ``reset()``, preferring fixed points:
    /// at each length, among the positions that can take that place, the last one that `isFixed` (a row whose
    /// index does not change), else the last one. Calls `keep` for each chosen position.
    ///
    /// `added(p)` says whether position `p` in `0..<count` was added, and `value(p)` is its value. Positions
    /// of one length have strictly decreasing values (a larger value after a smaller one would extend the
    /// run), so the positions that can take a place form one contiguous range of that length's positions.
    ///
    /// - Complexity: O(n + L log n) for n positions and a longest run of length L.
    func chooseBackward(
        count: Int, added: (Int) -> Bool, value: (Int) -> Int32, isFixed: (Int) -> Bool, keep: (Int) -> Void
    ) {
        guard length > 0 else { return }
        // The added positions grouped by length, ascending within each (a counting sort), and for each entry
        // the index of the last fixed point at or before it within its length (or -1).
        var starts = [Int](repeating: 0, count: length + 1)
        for position in 0..<count where added(position) { starts[Int(lengths[position])] += 1 }
        for level in 0..<length { starts[level + 1] += starts[level] }
        var fill = starts
        var byLevel = [Int](repeating: 0, count: starts[length])
        for position in 0..<count where added(position) {
            let level = Int(lengths[position]) - 1
            byLevel[fill[level]] = position
            fill[level] += 1
        }
        var lastFixed = [Int](repeating: -1, count: byLevel.count)
        for level in 0..<length {
            var last = -1
            for index in starts[level]..<starts[level + 1] {
                if isFixed(byLevel[index]) { last = index }
                lastFixed[index] = last
            }
        }
        var before = Int.max
        var bound = Int32.max
        for level in stride(from: length - 1, through: 0, by: -1) {
            var low = starts[level]
            var high = starts[level + 1]
            // high: the first position at or after `before`.
            var a = low
            var b = high
            while a < b {
                let mid = (a + b) / 2
                if byLevel[mid] < before { a = mid + 1 } else { b = mid }
            }
            high = a
            // low: the first value below `bound` (values decrease along the level).
            a = low
            b = high
            while a < b {
                let mid = (a + b) / 2
                if value(byLevel[mid]) < bound { b = mid } else { a = mid + 1 }
            }
            low = a
            guard low < high else { return }
            let chosen = lastFixed[high - 1] >= low ? lastFixed[high - 1] : high - 1
            let position = byLevel[chosen]
            keep(position)
            before = position
            bound = value(position)
        }
    }

    /// Sets `isMember[p]` for the positions of one longest strictly increasing subsequence of `values` (and
    /// clears it for the others); returns its length. `values` holds at most `capacity` distinct values.
    ///
    /// - Complexity: O(n log n); O(n) when the values are already mostly increasing.
    mutating func mark(_ values: UnsafeBufferPointer<Int32>, isMember: UnsafeMutableBufferPointer<Bool>) -> Int {
        let count = Swift.min(values.count, capacity, isMember.count)
        reset()
        for position in 0..<count { add(values[position], at: position) }
        beginBackward()
        var position = count - 1
        while position >= 0 {
            isMember[position] = takeBackward(values[position], at: position)
            position -= 1
        }
        return length
    }

    /// Whether each of `values` belongs to one longest strictly increasing subsequence of them (the one
    /// ``mark(_:isMember:)`` chooses). The values need not be dense nor fit in `Int32`: they are narrowed
    /// without changing their order.
    ///
    /// - Complexity: O(n log n); O(n) when the values are already mostly increasing.
    static func members(of values: [Int]) -> [Bool] {
        guard let low = values.min(), let high = values.max() else { return [] }
        let narrowed: [Int32]
        let (span, overflow) = high.subtractingReportingOverflow(low)
        if !overflow, span <= Int(Int32.max) {
            narrowed = values.map { Int32(truncatingIfNeeded: $0 &- low) }
        } else {
            // Ranks: the same order (equal values share one rank) in 0..<n.
            var ranked = [Int32](repeating: 0, count: values.count)
            let order = values.indices.sorted { values[$0] < values[$1] }
            var rank: Int32 = 0
            for (index, position) in order.enumerated() {
                if index > 0, values[order[index - 1]] < values[position] { rank += 1 }
                ranked[position] = rank
            }
            narrowed = ranked
        }
        var subsequence = LongestIncreasingSubsequence(capacity: values.count)
        var isMember = [Bool](repeating: false, count: values.count)
        narrowed.withUnsafeBufferPointer { values in
            isMember.withUnsafeMutableBufferPointer { isMember in
                _ = subsequence.mark(values, isMember: isMember)
            }
        }
        return isMember
    }

    /// For each position of `targets` (each old section's new index, -1 when absent), whether it stays in place:
    /// a longest increasing run of targets (among those, one keeping the most `preferring` targets), found with
    /// a Fenwick tree of prefix maxima. The weighted variant the section diff uses; with `preferenceFirst`, a
    /// run keeping the most `preferring` targets (among those, a longest one), which the row diff uses to keep
    /// rows that must not move.
    /// - Complexity: O(n log n) for n targets.
    static func keptInPlace(targets: [Int], preferring: [Bool], preferenceFirst: Bool = false) -> [Bool] {
        struct Best {
            var length = 0
            var preferred = 0
            var position = -1
        }
        // The greater of two runs; the second when they are equal (as `max`).
        func max(_ lhs: Best, _ rhs: Best) -> Best {
            let isLess =
                preferenceFirst
                ? (rhs.preferred, rhs.length) < (lhs.preferred, lhs.length)
                : (rhs.length, rhs.preferred) < (lhs.length, lhs.preferred)
            return isLess ? lhs : rhs
        }
        let size = preferring.count
        var tree = [Best](repeating: Best(), count: size + 1)
        var predecessor = [Int](repeating: -1, count: targets.count)
        var overall = Best()
        for (position, target) in targets.enumerated() where target >= 0 {
            var best = Best()
            var index = target  // prefix of targets below `target`: tree indexes 1...target
            while index > 0 {
                best = max(best, tree[index])
                index &= index - 1
            }
            predecessor[position] = best.position
            let here = Best(
                length: best.length + 1, preferred: best.preferred + (preferring[target] ? 1 : 0), position: position)
            overall = max(overall, here)
            index = target + 1
            while index <= size {
                tree[index] = max(tree[index], here)
                index += index & -index
            }
        }
        var kept = [Bool](repeating: false, count: targets.count)
        var position = overall.position
        while position >= 0 {
            kept[position] = true
            position = predecessor[position]
        }
        return kept
    }
}
