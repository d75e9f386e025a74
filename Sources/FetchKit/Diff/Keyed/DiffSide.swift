/// One side of a diff: every row's primary key in display order, grouped into named sections.
///
/// Sections are stored flat: ``keys`` holds the rows of all sections one after another, and
/// ``sectionStarts`` says where each section begins. Section names are unique on one side; sections
/// are matched across the two sides by name, rows by key.
///
/// ```swift
/// let old = try DiffSide(sections: [(name: "A", keys: [1, 2]), (name: "B", keys: [3])])
/// old.sectionRange(1)   // 2..<3
/// ```
@_spi(Benchmarks) public struct DiffSide<Key: Hashable> {
    /// Every row's primary key, in display order (sections concatenated).
    public private(set) var keys: [Key]
    /// The name of each section, unique on this side.
    public private(set) var sectionNames: [String]
    /// The index in ``keys`` where each section starts: the first is 0, the rest never decrease.
    public private(set) var sectionStarts: [Int]

    /// Creates a side from flat keys and section boundaries.
    ///
    /// - Throws: ``FetchKitError/Code/invalidValue`` when the names and starts differ in number, a start is out
    ///   of order or out of range, the first start is not 0, a name repeats, or there are rows but no sections.
    public init(keys: [Key], sectionNames: [String], sectionStarts: [Int]) throws {
        try Self.validate(rowCount: keys.count, sectionNames: sectionNames, sectionStarts: sectionStarts)
        self.keys = keys
        self.sectionNames = sectionNames
        self.sectionStarts = sectionStarts
    }

    /// Creates a side with one unnamed section (named `""`) holding every row, even when there are none.
    public init(keys: [Key]) {
        self.keys = keys
        self.sectionNames = [""]
        self.sectionStarts = [0]
    }

    /// Creates a side from its sections, in order.
    ///
    /// - Throws: ``FetchKitError/Code/invalidValue`` when a section name repeats.
    public init(sections: [(name: String, keys: [Key])]) throws {
        var keys: [Key] = []
        keys.reserveCapacity(sections.reduce(0) { $0 + $1.keys.count })
        var names: [String] = []
        var starts: [Int] = []
        names.reserveCapacity(sections.count)
        starts.reserveCapacity(sections.count)
        for section in sections {
            names.append(section.name)
            starts.append(keys.count)
            keys.append(contentsOf: section.keys)
        }
        try self.init(keys: keys, sectionNames: names, sectionStarts: starts)
    }

    /// Creates a side without checking it; the caller guarantees what the throwing initializer checks.
    init(uncheckedKeys keys: [Key], sectionNames: [String], sectionStarts: [Int]) {
        self.keys = keys
        self.sectionNames = sectionNames
        self.sectionStarts = sectionStarts
    }

    /// The number of sections.
    public var sectionCount: Int { sectionNames.count }

    /// The indexes in ``keys`` of section `section`'s rows.
    ///
    /// - Precondition: `section` is in `0..<sectionCount`.
    public func sectionRange(_ section: Int) -> Range<Int> {
        let end = section + 1 < sectionStarts.count ? sectionStarts[section + 1] : keys.count
        return sectionStarts[section]..<end
    }

    /// The number of rows in each section.
    public var sectionCounts: [Int] {
        (0..<sectionCount).map { sectionRange($0).count }
    }

    /// The sections as (name, keys) pairs.
    public var sections: [(name: String, keys: [Key])] {
        (0..<sectionCount).map { (name: sectionNames[$0], keys: Array(keys[sectionRange($0)])) }
    }

    static func validate(rowCount: Int, sectionNames: [String], sectionStarts: [Int]) throws {
        guard sectionNames.count == sectionStarts.count else {
            throw FetchKitError.invalidValue(
                "diff side: \(sectionNames.count) section names but \(sectionStarts.count) section starts")
        }
        guard rowCount < Int(Int32.max) else {
            throw FetchKitError.invalidValue("diff side: \(rowCount) rows is more than a diff can index")
        }
        guard let first = sectionStarts.first else {
            guard rowCount == 0 else {
                throw FetchKitError.invalidValue("diff side: \(rowCount) rows but no sections")
            }
            return
        }
        guard first == 0 else {
            throw FetchKitError.invalidValue("diff side: the first section starts at \(first), not 0")
        }
        var previous = 0
        for (index, start) in sectionStarts.enumerated() {
            guard start >= previous, start <= rowCount else {
                throw FetchKitError.invalidValue(
                    "diff side: section \(index) starts at \(start), outside \(previous)...\(rowCount)")
            }
            previous = start
        }
        var seen = Set<SectionName>(minimumCapacity: sectionNames.count)
        for (index, name) in sectionNames.enumerated() where !seen.insert(SectionName(name)).inserted {
            throw FetchKitError.invalidValue("diff side: section \(index) repeats the name \(SafeText.quoted(name))")
        }
    }
}

extension DiffSide: Equatable {}
extension DiffSide: Hashable {}
extension DiffSide: Sendable where Key: Sendable {}
