/// The rows of one entity table that a transaction changed (directly, or through a related row a to-one key
/// path reads), re-read once for every controller after the commit, without any controller's predicate.
struct RereadRows: Sendable {
    /// Every key the change names in the table, and the keys of rows pointing at changed related rows.
    var keys: Set<Value>
    /// The rows that still exist, by primary key: every attribute, and the related key paths in
    /// ``relatedColumns``.
    var rows: [Value: Row]
    /// The key paths beyond the entity's attributes the rows carry (`category.name`).
    var relatedColumns: Set<String>
    /// The related tables whose changed rows were followed to the entity rows pointing at them, with the
    /// foreign key followed.
    var followed: [String: Set<String>]

    /// Adds rows re-read later: their keys, and their rows in place of the earlier ones (a key they name
    /// without a row no longer exists or matches nothing); the followed foreign keys of both.
    ///
    /// - Returns: `false`, changing nothing, when the rows carry other related columns.
    /// - Complexity: O(k) for the k keys `later` names.
    mutating func absorb(_ later: RereadRows) -> Bool {
        guard relatedColumns == later.relatedColumns else { return false }
        keys.formUnion(later.keys)
        for key in later.keys { rows[key] = later.rows[key] }
        for (table, foreignKeys) in later.followed { followed[table, default: []].formUnion(foreignKeys) }
        return true
    }
}
