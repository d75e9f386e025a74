/// What to fetch: an entity, a predicate, an order, an optional window and sections.
///
/// ```swift
/// var request = FetchRequest(entity: "Todo",
///                            predicate: try FetchPredicate(format: "done == NO"),
///                            sortDescriptors: [.ascending("category.name"), .ascending("ordering")])
/// request.sectionNameKeyPath = "category.name"
/// request.fetchLimit = 50
/// ```
public struct FetchRequest: Sendable, Hashable {
    /// The entity's name.
    public var entityName: String
    /// Which objects: ``FetchPredicate/true`` for all.
    public var predicate: FetchPredicate
    /// The order; the primary key is always appended as the last key.
    public var sortDescriptors: [FetchSortDescriptor]
    /// At most this many objects (`nil`: no limit).
    public var fetchLimit: Int?
    /// Skip this many objects first.
    public var fetchOffset: Int
    /// The key path whose value names each object's section (may cross to-one relationships).
    /// The first sort descriptor should order by it, as with `NSFetchedResultsController`.
    public var sectionNameKeyPath: String?
    /// The attributes to fetch (`nil`: all). The primary key is always fetched.
    public var propertiesToFetch: [String]?

    /// Creates a request.
    public init(
        entity: String, predicate: FetchPredicate = .true, sortDescriptors: [FetchSortDescriptor] = [],
        fetchLimit: Int? = nil, fetchOffset: Int = 0, sectionNameKeyPath: String? = nil,
        propertiesToFetch: [String]? = nil
    ) {
        self.entityName = entity
        self.predicate = predicate
        self.sortDescriptors = sortDescriptors
        self.fetchLimit = fetchLimit
        self.fetchOffset = fetchOffset
        self.sectionNameKeyPath = sectionNameKeyPath
        self.propertiesToFetch = propertiesToFetch
    }

    /// Creates a request for a record type's entity.
    public init<R: Record>(
        _ type: R.Type, predicate: FetchPredicate = .true, sortDescriptors: [FetchSortDescriptor] = [],
        fetchLimit: Int? = nil, fetchOffset: Int = 0, sectionNameKeyPath: String? = nil
    ) {
        self.init(
            entity: R.entity.name, predicate: predicate, sortDescriptors: sortDescriptors,
            fetchLimit: fetchLimit, fetchOffset: fetchOffset, sectionNameKeyPath: sectionNameKeyPath)
    }
}
