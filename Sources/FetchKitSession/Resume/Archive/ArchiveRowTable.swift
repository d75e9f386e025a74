import FetchKit

/// The distinct rows of a session's kept lists, and the distinct column names of those rows, each numbered in
/// the order first met: an archive writes each row once and each list as row numbers (a session's lists differ
/// by a few rows).
struct ArchiveRowTable {
    private(set) var rows: [Row] = []
    private(set) var layouts: [[String]] = []
    /// Each row's layout number, parallel to ``rows``.
    private(set) var rowLayouts: [Int] = []
    private var rowNumbers: [Row: Int] = [:]
    private var layoutNumbers: [[String]: Int] = [:]
    /// Layouts already numbered, by identity (rows fetched together share one): most rows skip hashing names.
    private var numberedLayouts: [ObjectIdentifier: Int] = [:]

    /// The number of `row`, numbering it (and its columns) when it is new.
    mutating func number(of row: Row) -> Int {
        if let number = rowNumbers[row] { return number }
        rowNumbers[row] = rows.count
        rows.append(row)
        rowLayouts.append(layoutNumber(of: row.layout))
        return rows.count - 1
    }

    private mutating func layoutNumber(of layout: RowLayout) -> Int {
        if let number = numberedLayouts[ObjectIdentifier(layout)] { return number }
        let number = layoutNumbers[layout.names] ?? layouts.count
        if number == layouts.count {
            layouts.append(layout.names)
            layoutNumbers[layout.names] = number
        }
        numberedLayouts[ObjectIdentifier(layout)] = number
        return number
    }
}
