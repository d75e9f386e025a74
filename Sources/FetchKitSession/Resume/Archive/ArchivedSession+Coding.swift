@_spi(Backend) import FetchKit

/// A session's bytes: its rows once each (its kept lists share most of them), each with the number of its
/// column names, then each list as row numbers.
extension ArchiveWriter {
    mutating func session(_ session: ArchivedSession) {
        string(session.id)
        bytes(session.request.bytes)
        fixed(Self.microseconds(session.age))
        var table = ArchiveRowTable()
        let lists = session.sent.map { $0.list.rows.map { table.number(of: $0) } }
        count(table.layouts.count)
        for names in table.layouts { strings(names) }
        count(table.rows.count)
        for (row, layout) in zip(table.rows, table.rowLayouts) {
            count(layout)
            for index in row.names.indices { value(row.value(at: index)) }
        }
        count(session.sent.count)
        for (sent, numbers) in zip(session.sent, lists) {
            count(sent.sequence)
            string(sent.list.primaryKey)
            strings(sent.list.sectionNames)
            count(sent.list.sectionStarts.count)
            for start in sent.list.sectionStarts { count(start) }
            count(numbers.count)
            for number in numbers { count(number) }
        }
    }

    /// Whole microseconds of `duration` (saturating).
    private static func microseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let (micros, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000)
        return overflow ? (seconds < 0 ? .min : .max) : micros + attoseconds / 1_000_000_000_000
    }
}

extension ArchiveReader {
    /// A session ``ArchiveWriter/session(_:)`` wrote, checked (every number within what it numbers).
    mutating func session() throws(ResumeArchiveError) -> ArchivedSession {
        let id = try string()
        let request = RequestIdentity(bytes: Array(try bytes()))
        let micros = try fixedInt64()
        guard micros >= 0 else { throw .invalid("session age") }
        var layouts: [RowLayout] = []
        for _ in 0..<(try count()) { layouts.append(RowLayout(names: try strings())) }
        var rows: [Row] = []
        for _ in 0..<(try count()) {
            let layout = try element(of: layouts, "row's columns")
            var values: [Value] = []
            for _ in layout.names.indices { values.append(try value()) }
            rows.append(Row(layout: layout, values: values))
        }
        var sent: [ArchivedSession.Sent] = []
        for _ in 0..<(try count()) {
            let sequence = try number()
            let primaryKey = try string()
            let sectionNames = try strings()
            var sectionStarts: [Int] = []
            for _ in 0..<(try count()) { sectionStarts.append(try integer()) }
            var listRows: [Row] = []
            for _ in 0..<(try count()) { listRows.append(try element(of: rows, "row number")) }
            let list = try ArchivedList(
                rows: listRows, sectionNames: sectionNames, sectionStarts: sectionStarts, primaryKey: primaryKey)
            sent.append(ArchivedSession.Sent(sequence: sequence, list: list))
        }
        return ArchivedSession(id: id, request: request, age: .microseconds(micros), sent: sent)
    }

    /// The element of `array` whose number is read next.
    private mutating func element<T>(of array: [T], _ what: String) throws(ResumeArchiveError) -> T {
        let number = try number()
        guard number < UInt64(array.count) else { throw .invalid(what) }
        return array[Int(number)]
    }
}
