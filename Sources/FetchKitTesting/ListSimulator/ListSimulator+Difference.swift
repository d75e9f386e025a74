extension ListSimulator {
    /// The first difference between `result` and `expected`, readably, or `nil` when they are equal.
    ///
    /// Section identifiers are compared only when `named`.
    static func difference<Section: Equatable, Row: Equatable>(
        _ result: [(section: Section, rows: [Row])], _ expected: [(section: Section, rows: [Row])], named: Bool
    ) -> String? {
        guard result.count == expected.count else {
            return "the result has \(result.count) sections, the new snapshot \(expected.count)"
        }
        let differing = result.indices.filter {
            (named && result[$0].section != expected[$0].section) || result[$0].rows != expected[$0].rows
        }
        guard let first = differing.first else { return nil }
        let more = differing.count > 1 ? " (and \(differing.count - 1) more sections differ)" : ""
        let name = named ? " (\(describe(expected[first].section)))" : ""
        if named && result[first].section != expected[first].section {
            return "section \(first) is \(describe(result[first].section)) instead of "
                + "\(describe(expected[first].section))" + more
        }
        let got = result[first].rows
        let want = expected[first].rows
        let row =
            zip(got, want).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(got.count, want.count)
        return "section \(first)\(name) differs from row \(row): expected \(window(want, around: row)), "
            + "got \(window(got, around: row))" + more
    }

    /// The elements of `rows` near `index` (all of them when there are few).
    static func window<Row>(_ rows: [Row], around index: Int) -> String {
        let radius = 4
        guard rows.count > 2 * radius + 2 else { return "[" + rows.map(describe).joined(separator: ", ") + "]" }
        let start = max(0, min(index, rows.count) - radius)
        let end = min(rows.count, index + radius + 1)
        let elements = rows[start..<end].map(describe).joined(separator: ", ")
        return "[" + (start > 0 ? "… " : "") + elements + (end < rows.count ? " …" : "") + "]"
            + " (\(rows.count) rows)"
    }

    /// A value as `String(reflecting:)` shows it, so strings keep their quotes.
    static func describe<Value>(_ value: Value) -> String {
        String(reflecting: value)
    }
}
