import FetchKit

/// A list a session sent, as an archive keeps it: its rows in order, its sections (names and where each starts,
/// empty ones included) and the primary key's name — everything a diff reads of a snapshot. The objects are made
/// again from the rows when a client resumes from it (``snapshot(objects:current:)``).
struct ArchivedList: Sendable {
    let rows: [Row]
    let sectionNames: [String]
    let sectionStarts: [Int]
    let primaryKey: String

    /// The rows of the list, as ``ResumeStates`` counts them.
    var count: Int { rows.count }

    /// What an archive keeps of `snapshot`.
    init(_ snapshot: ResultsSnapshot<some Sendable>) {
        rows = snapshot.rows
        sectionNames = snapshot.sectionNames
        sectionStarts = snapshot.sectionStarts
        primaryKey = snapshot.primaryKey
    }

    /// A list read from an archive, checked: one start per section, from 0, in order and within the rows; every
    /// row in a section and with a primary key.
    init(rows: [Row], sectionNames: [String], sectionStarts: [Int], primaryKey: String) throws(ResumeArchiveError) {
        guard sectionNames.count == sectionStarts.count, (sectionStarts.first ?? 0) == 0,
            zip(sectionStarts, sectionStarts.dropFirst()).allSatisfy({ $0 <= $1 }),
            (sectionStarts.last ?? 0) <= rows.count, rows.isEmpty || !sectionStarts.isEmpty
        else { throw .invalid("list's sections") }
        guard rows.allSatisfy({ $0[primaryKey] != nil }) else { throw .invalid("row without its primary key") }
        self.rows = rows
        self.sectionNames = sectionNames
        self.sectionStarts = sectionStarts
        self.primaryKey = primaryKey
    }

    /// The snapshot this list was, with objects made by `objects` (the controller's own materializer) — or `nil`
    /// when it cannot be made the same: the objects cannot be made from the rows, or the rows have other columns
    /// than `current`'s (the schema or the request's columns changed across the restart: a diff compares values
    /// column by column).
    func snapshot<Object: Sendable>(
        objects: ([Row]) throws -> [Object], current: ResultsSnapshot<Object>
    ) -> ResultsSnapshot<Object>? {
        if let names = current.columnNames {
            var checked: RowLayout?
            for row in rows where row.layout !== checked {
                guard row.names == names else { return nil }
                checked = row.layout
            }
        }
        guard let made = try? objects(rows), made.count == rows.count else { return nil }
        return ResultsSnapshot(
            rows: rows, objects: made, sectionNames: sectionNames, sectionStarts: sectionStarts, primaryKey: primaryKey)
    }
}
