/// One batch of a composite controller, in global index paths.
public struct CompositeBatch: Sendable {
    /// What changed, with the row counts of every section before and after.
    public let changeset: Changeset
    /// The section names before the batch.
    public let sectionNamesBefore: [String]
    /// The section names after the batch.
    public let sectionNamesAfter: [String]
    /// The store transaction that caused it (`nil` for a part's fetch or request change).
    public let transactionID: UInt64?
}
