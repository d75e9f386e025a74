/// One section of a ``ResultsSnapshot``.
public struct ResultsSection<Object: Sendable>: Sendable {
    /// The section's name: the section key path's value as text (`""` for `NULL` or no sections).
    public let name: String
    /// The section's objects, in order: a view into the snapshot, not a copy.
    public let objects: Objects

    init(name: String, entries: ResultsEntries<Object>, range: Range<Int>) {
        self.name = name
        self.objects = ResultsObjects(entries: entries, range: range)
    }

    /// The number of objects in the section.
    public var numberOfObjects: Int { objects.count }

    /// The section index title: the name's first character, capitalised (as NSFetchedResultsController does).
    public var indexTitle: String? { name.first.map { String($0).uppercased() } }

    /// The objects of one section, indexed from 0: a view into the snapshot.
    public typealias Objects = ResultsObjects<Object>
}
