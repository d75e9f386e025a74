/// Longest increasing subsequence by patience sorting, over scratch buffers reused across calls.
///
/// The diff keeps the rows of a longest increasing subsequence in place and moves the rest, which makes the
/// number of moves minimal: moving one row of 10,000 is one move.
struct LongestIncreasingSubsequence: ~Copyable {
    /// For each length k, the position of the smallest value ending an increasing run of length k + 1.
    private let tails: UnsafeMutablePointer<Int32>
    /// For each position, the position before it in the best run ending there, or -1.
    private let predecessors: UnsafeMutablePointer<Int32>
    private let capacity: Int

    /// Creates scratch space for sequences of up to `capacity` values.
    init(capacity: Int) {
        self.capacity = Swift.max(capacity, 1)
        tails = .allocate(capacity: self.capacity)
        predecessors = .allocate(capacity: self.capacity)
    }

    deinit {
        tails.deallocate()
        predecessors.deallocate()
    }

    /// Sets `isMember[p]` for the positions of one longest strictly increasing subsequence of `values` (and
    /// clears it for the others); returns its length. `values` holds at most `capacity` distinct values.
    ///
    /// - Complexity: O(n log n); O(n) when the values are already mostly increasing.
    func mark(_ values: UnsafeBufferPointer<Int32>, isMember: UnsafeMutableBufferPointer<Bool>) -> Int {
        let count = Swift.min(values.count, capacity, isMember.count)
        var length = 0
        for position in 0..<count {
            let value = values[position]
            if length == 0 || values[Int(tails[length - 1])] < value {
                predecessors[position] = length == 0 ? -1 : tails[length - 1]
                tails[length] = Int32(truncatingIfNeeded: position)
                length += 1
                continue
            }
            // The first run length whose tail is not below `value`.
            var low = 0
            var high = length - 1
            while low < high {
                let middle = (low + high) >> 1
                if values[Int(tails[middle])] < value { low = middle + 1 } else { high = middle }
            }
            predecessors[position] = low == 0 ? -1 : tails[low - 1]
            tails[low] = Int32(truncatingIfNeeded: position)
        }
        for position in 0..<count { isMember[position] = false }
        if length > 0 {
            var position = Int(tails[length - 1])
            while position >= 0 {
                isMember[position] = true
                position = Int(predecessors[position])
            }
        }
        return length
    }
}
