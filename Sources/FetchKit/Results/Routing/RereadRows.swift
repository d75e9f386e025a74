/// The rows of one entity table that a transaction changed (directly, or through a related row a to-one key
/// path reads), re-read once for every controller after the commit, without any controller's predicate.
struct RereadRows: Sendable {
    /// Every key the change names in the table, and the keys of rows pointing at changed related rows.
    let keys: Set<Value>
    /// The rows that still exist, by primary key: every attribute, and the related key paths in
    /// ``relatedColumns``.
    let rows: [Value: Row]
    /// The key paths beyond the entity's attributes the rows carry (`category.name`).
    let relatedColumns: Set<String>
    /// The related tables whose changed rows were followed to the entity rows pointing at them, with the
    /// foreign key followed.
    let followed: [String: Set<String>]
}
