/// One section of a ``ResultsSnapshot``.
public struct ResultsSection<Object: Sendable>: Sendable {
    /// The section's name: the section key path's value as text (`""` for `NULL` or no sections).
    public let name: String
    /// The section's objects, in order: a view into the snapshot, not a copy.
    public let objects: Objects

    init(name: String, entries: ResultsEntries<Object>, range: Range<Int>) {
        self.name = name
        self.objects = Objects(entries: entries, range: range)
    }

    /// The number of objects in the section.
    public var numberOfObjects: Int { objects.count }

    /// The section index title: the name's first character, capitalised (as NSFetchedResultsController does).
    public var indexTitle: String? { name.first.map { String($0).uppercased() } }

    /// The objects of one section, indexed from 0.
    ///
    /// Reading one object is O(log n) for the n rows of the snapshot; iterating them all is O(1) per object.
    public struct Objects: RandomAccessCollection, Sendable {
        let entries: ResultsEntries<Object>
        let range: Range<Int>

        public var startIndex: Int { 0 }
        public var endIndex: Int { range.count }

        /// The object at `index` (in `0..<count`).
        ///
        /// - Complexity: O(log n).
        public subscript(index: Int) -> Object {
            precondition(index >= 0 && index < range.count, "section row out of range")
            return entries[range.lowerBound + index].object
        }

        public func makeIterator() -> Iterator { Iterator(base: entries.elements(in: range)) }

        /// Walks the section's objects in order.
        public struct Iterator: IteratorProtocol {
            var base: ResultsEntries<Object>.Iterator
            public mutating func next() -> Object? { base.next()?.object }
        }
    }
}
