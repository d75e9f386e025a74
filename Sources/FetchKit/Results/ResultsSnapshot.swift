/// An immutable view of a results controller's content: sections of objects in fetch order.
///
/// Snapshots are cheap to pass around: sections share the storage of ``fetchedObjects``.
public struct ResultsSnapshot<Object: Sendable>: Sendable {
    /// Every object, in order (sections concatenated).
    public let fetchedObjects: [Object]
    /// The sections, in order. Without a section key path there is one section named `""` (none when empty).
    public let sections: [ResultsSection<Object>]
    /// The primary key of every object, parallel to ``fetchedObjects``.
    public let keys: [Value]
    /// Where each section starts in ``fetchedObjects``.
    public let sectionStarts: [Int]
    let indexByKey: [Value: Int]

    /// An empty snapshot.
    public init() {
        self.init(objects: [], keys: [], sectionNames: [], sectionStarts: [])
    }

    init(objects: [Object], keys: [Value], sectionNames: [String], sectionStarts: [Int]) {
        self.fetchedObjects = objects
        self.keys = keys
        self.sectionStarts = sectionStarts
        var sections: [ResultsSection<Object>] = []
        sections.reserveCapacity(sectionNames.count)
        for (index, name) in sectionNames.enumerated() {
            let end = index + 1 < sectionStarts.count ? sectionStarts[index + 1] : objects.count
            sections.append(ResultsSection(name: name, objects: objects[sectionStarts[index]..<end]))
        }
        self.sections = sections
        var indexByKey: [Value: Int] = [:]
        indexByKey.reserveCapacity(keys.count)
        for (index, key) in keys.enumerated() { indexByKey[key] = index }
        self.indexByKey = indexByKey
    }

    /// The number of rows in each section.
    public var sectionCounts: [Int] { sections.map(\.numberOfObjects) }

    /// The object at `path`, or `nil` when the path is out of range.
    ///
    /// - Complexity: O(1).
    public func object(at path: RowPath) -> Object? {
        guard sections.indices.contains(path.section) else { return nil }
        let section = sections[path.section]
        guard path.row >= 0, path.row < section.numberOfObjects else { return nil }
        return fetchedObjects[sectionStarts[path.section] + path.row]
    }

    /// The path of the object whose primary key is `key`, or `nil` when it is not in the results.
    ///
    /// - Complexity: O(log *s*) for *s* sections.
    public func rowPath(forKey key: Value) -> RowPath? {
        guard let flat = indexByKey[key] else { return nil }
        return rowPath(atFlatIndex: flat)
    }

    /// The path of the `flat`-th object.
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
        return sections.compactMap(\.indexTitle).filter { seen.insert($0).inserted }
    }
}

/// One section of a ``ResultsSnapshot``.
public struct ResultsSection<Object: Sendable>: Sendable {
    /// The section's name: the section key path's value as text (`""` for `NULL` or no sections).
    public let name: String
    /// The section's objects, in order.
    public let objects: ArraySlice<Object>

    /// The number of objects in the section.
    public var numberOfObjects: Int { objects.count }

    /// The section index title: the name's first character, capitalised (as NSFetchedResultsController does).
    public var indexTitle: String? { name.first.map { String($0).uppercased() } }
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
