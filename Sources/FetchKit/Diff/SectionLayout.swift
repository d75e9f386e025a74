/// Where each section's rows lie in a flat row array.
struct SectionLayout {
    /// The first row index of each section.
    let starts: [Int]
    /// The total number of rows.
    let rowCount: Int

    init(starts: [Int], rowCount: Int) {
        self.starts = starts
        self.rowCount = rowCount
    }

    init<Key>(_ side: DiffSide<Key>) {
        self.init(starts: side.sectionStarts, rowCount: side.keys.count)
    }

    var sectionCount: Int { starts.count }

    @inline(__always)
    func start(_ section: Int) -> Int { starts[section] }

    @inline(__always)
    func end(_ section: Int) -> Int {
        section + 1 < starts.count ? starts[section + 1] : rowCount
    }

    /// The number of rows in each section.
    var counts: [Int] {
        (0..<sectionCount).map { end($0) - start($0) }
    }

    /// The section holding row `row` (the last section starting at or before it; empty sections hold none).
    /// - Complexity: O(log sections).
    func section(containing row: Int) -> Int {
        var low = 0
        var high = starts.count
        while low < high {
            let middle = (low + high) >> 1
            if starts[middle] <= row { low = middle + 1 } else { high = middle }
        }
        return low - 1
    }
}
