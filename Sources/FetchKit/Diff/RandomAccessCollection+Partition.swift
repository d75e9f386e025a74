extension RandomAccessCollection where Index == Int {
    /// The first index whose element satisfies `isInSecondHalf`, or `endIndex`; the collection must be
    /// partitioned by it (all elements failing it come first). Binary search.
    ///
    /// - Complexity: O(log n) predicate calls.
    func partitionPoint(where isInSecondHalf: (Element) -> Bool) -> Int {
        var low = startIndex
        var high = endIndex
        while low < high {
            let middle = low + (high - low) / 2
            if isInSecondHalf(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
