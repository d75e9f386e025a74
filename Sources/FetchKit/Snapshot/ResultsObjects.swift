/// Objects of a snapshot, in order and indexed from 0: a view into the snapshot, not a copy.
///
/// ``ResultsSnapshot/fetchedObjects`` and ``ResultsSection/objects`` are views: getting one is O(1) whatever
/// the number of rows; reading one object is O(log n) for the n rows of the snapshot; iterating them all is
/// O(1) per object. `Array(controller.fetchedObjects)` copies them when an array is wanted.
public struct ResultsObjects<Object: Sendable>: RandomAccessCollection, Sendable {
    let entries: ResultsEntries<Object>
    let range: Range<Int>

    public var startIndex: Int { 0 }
    public var endIndex: Int { range.count }

    /// The object at `index` (in `0..<count`).
    ///
    /// - Complexity: O(log n).
    public subscript(index: Int) -> Object {
        precondition(index >= 0 && index < range.count, "object index out of range")
        return entries[range.lowerBound + index].object
    }

    public func makeIterator() -> Iterator { Iterator(base: entries.elements(in: range)) }

    /// Walks the objects in order.
    public struct Iterator: IteratorProtocol {
        var base: ResultsEntries<Object>.Iterator
        public mutating func next() -> Object? { base.next()?.object }
    }
}

extension ResultsObjects: Equatable where Object: Equatable {
    /// Whether both hold equal objects in the same order.
    ///
    /// - Complexity: O(n).
    public static func == (lhs: ResultsObjects, rhs: ResultsObjects) -> Bool {
        lhs.elementsEqual(rhs)
    }

    /// Whether the view holds the array's objects, in the same order.
    ///
    /// - Complexity: O(n).
    public static func == (lhs: ResultsObjects, rhs: [Object]) -> Bool {
        lhs.count == rhs.count && lhs.elementsEqual(rhs)
    }

    /// Whether the array holds the view's objects, in the same order.
    ///
    /// - Complexity: O(n).
    public static func == (lhs: [Object], rhs: ResultsObjects) -> Bool { rhs == lhs }

    /// Whether the view and the array differ in an object or in order.
    public static func != (lhs: ResultsObjects, rhs: [Object]) -> Bool { !(lhs == rhs) }

    /// Whether the array and the view differ in an object or in order.
    public static func != (lhs: [Object], rhs: ResultsObjects) -> Bool { !(rhs == lhs) }
}
