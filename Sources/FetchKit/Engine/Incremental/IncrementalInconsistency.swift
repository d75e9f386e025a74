/// A change the incremental path cannot apply without breaking a snapshot's invariants (a row that would
/// split a section, sections that changed their relative order, a row not where its sort key places it).
/// The controller then takes the refetch + diff path, which needs no such assumption.
struct IncrementalInconsistency: Error, CustomStringConvertible {
    let description: String
}
