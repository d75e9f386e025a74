/// An immutable view of a results controller's content: sections of objects in fetch order.
///
/// A snapshot lives in a persistent tree: the next snapshot shares all of it but the O(log n) nodes one
/// change touched, so holding on to a snapshot (an ``ResultsBatch`` keeps two) costs little, and reading
/// one object is O(log n). ``fetchedObjects`` is a view; ``keys`` builds an array on each call: O(n).
public struct ResultsSnapshot<Object: Sendable>: Sendable {
    /// What a snapshot holds, behind one reference: copying a snapshot (into a batch, a stream, each of the
    /// controllers that share one request) costs one retain.
    private final class Storage: Sendable {
        let entries: ResultsEntries<Object>
        let sectionNames: [String]
        let sectionStarts: [Int]
        let locator: ResultsLocator
        let primaryKey: String

        init(
            entries: ResultsEntries<Object>, sectionNames: [String], sectionStarts: [Int],
            locator: ResultsLocator, primaryKey: String
        ) {
            self.entries = entries
            self.sectionNames = sectionNames
            self.sectionStarts = sectionStarts
            self.locator = locator
            self.primaryKey = primaryKey
        }
    }

    private let storage: Storage

    /// Every row with its object, in order.
    var entries: ResultsEntries<Object> { storage.entries }
    /// The section names, in order.
    package var sectionNames: [String] { storage.sectionNames }
    /// Where each section starts among the entries.
    package var sectionStarts: [Int] { storage.sectionStarts }
    /// Finds a row's position by its primary key.
    var locator: ResultsLocator { storage.locator }
    /// The primary key's attribute name.
    package var primaryKey: String { storage.primaryKey }

    /// An empty snapshot.
    public init() {
        self.init(
            entries: ResultsEntries(), sectionNames: [], sectionStarts: [], locator: .indexed([:]), primaryKey: "id")
    }

    init(
        entries: ResultsEntries<Object>, sectionNames: [String], sectionStarts: [Int],
        locator: ResultsLocator, primaryKey: String
    ) {
        storage = Storage(
            entries: entries, sectionNames: sectionNames, sectionStarts: sectionStarts, locator: locator,
            primaryKey: primaryKey)
    }

    /// Whether `other` is this very snapshot (the same tree), not merely equal: a batch computed from one
    /// snapshot applies only to it. Empty snapshots share one empty root, so two of them are the same only when
    /// they share their storage.
    ///
    /// - Complexity: O(1).
    func isIdentical(to other: ResultsSnapshot<Object>) -> Bool {
        storage === other.storage
            || (!entries.isEmpty && entries.tree.root === other.entries.tree.root
                && sectionStarts == other.sectionStarts)
    }

    /// The number of objects.
    ///
    /// - Complexity: O(1).
    public var count: Int { entries.count }

    /// Every object, in order (sections concatenated): a view into the snapshot, not a copy.
    ///
    /// - Complexity: O(1); reading one object is O(log n).
    public var fetchedObjects: ResultsObjects<Object> { ResultsObjects(entries: entries, range: 0..<entries.count) }

    /// The primary key of every object, parallel to ``fetchedObjects``.
    ///
    /// - Complexity: O(n): the array is built on each call.
    public var keys: [Value] { Row.primaryKeys(of: entries.rows, primaryKey: primaryKey) }

    /// The sections, in order. Without a section key path there is one section named `""`, also when it has no
    /// row (as in NSFetchedResultsController); the empty snapshot of a controller that has not fetched yet has
    /// none.
    ///
    /// - Complexity: O(*s*) for *s* sections; their objects are views into the snapshot.
    public var sections: [ResultsSection<Object>] {
        sectionNames.indices.map { ResultsSection(name: sectionNames[$0], entries: entries, range: sectionRange($0)) }
    }

    /// The number of rows in each section.
    ///
    /// - Complexity: O(*s*) for *s* sections.
    public var sectionCounts: [Int] { sectionNames.indices.map { sectionRange($0).count } }

    /// The positions of section `index` among all rows.
    func sectionRange(_ index: Int) -> Range<Int> {
        let end = index + 1 < sectionStarts.count ? sectionStarts[index + 1] : entries.count
        return sectionStarts[index]..<end
    }

    /// The object at `path`, or `nil` when the path is out of range.
    ///
    /// - Complexity: O(log n).
    public func object(at path: RowPath) -> Object? {
        guard let flat = flatIndex(of: path) else { return nil }
        return entries.object(at: flat)
    }

    /// The position among all rows of `path`, or `nil` when the path is out of range.
    func flatIndex(of path: RowPath) -> Int? {
        guard sectionNames.indices.contains(path.section) else { return nil }
        let range = sectionRange(path.section)
        guard path.row >= 0, path.row < range.count else { return nil }
        return range.lowerBound + path.row
    }

    /// The path of the object whose primary key is `key`, or `nil` when it is not in the results.
    ///
    /// - Complexity: O(log n).
    public func rowPath(forKey key: Value) -> RowPath? {
        guard let flat = flatIndex(ofKey: key) else { return nil }
        return rowPath(atFlatIndex: flat)
    }

    /// The path of the `flat`-th object.
    ///
    /// - Complexity: O(log *s*) for *s* sections.
    func rowPath(atFlatIndex flat: Int) -> RowPath {
        var low = 0
        var high = sectionStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if sectionStarts[mid] <= flat { low = mid } else { high = mid - 1 }
        }
        return RowPath(section: low, row: flat - sectionStarts[low])
    }

    /// The section index titles: the distinct ``ResultsSection/indexTitle`` values, in section order.
    public var sectionIndexTitles: [String] {
        var seen: Set<String> = []
        return sectionNames.compactMap { $0.first.map { String($0).uppercased() } }.filter { seen.insert($0).inserted }
    }
}

extension Value {
    /// This value as the name of a section: text as is, `NULL` as `""`, anything else as written.
    public var sectionName: String {
        switch self {
        case .null: return ""
        case .text(let text): return text
        default: return description
        }
    }
}
