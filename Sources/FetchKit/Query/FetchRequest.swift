/// What to fetch, and as what: an entity, a predicate, an order, an optional window and sections.
///
/// A request for records names its type once, and its key paths and `#Predicate` are checked against it:
///
/// ```swift
/// let open = try FetchRequest<Todo>(
///     predicate: #Predicate { !$0.done && $0.category?.name == "Work" },
///     sortBy: [SortDescriptor(\.position)], sectionBy: \.category?.name, fetchLimit: 50)
/// let controller = ResultsController(store: store, request: open)   // ResultsController<Todo>
/// ```
///
/// A dynamic request (an entity chosen at run time, a format string) fetches ``Row``s:
///
/// ```swift
/// var request = FetchRequest(entity: "Todo", predicate: try FetchPredicate(format: "done == NO"),
///                            sortDescriptors: [.ascending("category.name"), .ascending("ordering")])
/// request.sectionNameKeyPath = "category.name"
/// ```
public struct FetchRequest<Result: Sendable>: Sendable, Hashable {
    /// The request with its result type erased, as stores and backends receive it.
    public var erased: AnyFetchRequest

    /// Wraps an erased request (its entity must store `Result`).
    init(erased: AnyFetchRequest) {
        self.erased = erased
    }

    /// The entity's name.
    public var entityName: String { erased.entityName }
    /// Which objects: ``FetchPredicate/true`` for all.
    public var predicate: FetchPredicate {
        get { erased.predicate }
        set { erased.predicate = newValue }
    }
    /// The order; the primary key is always appended as the last key.
    public var sortDescriptors: [FetchSortDescriptor] {
        get { erased.sortDescriptors }
        set { erased.sortDescriptors = newValue }
    }
    /// At most this many objects (`nil`: no limit).
    public var fetchLimit: Int? {
        get { erased.fetchLimit }
        set { erased.fetchLimit = newValue }
    }
    /// Skip this many objects first.
    public var fetchOffset: Int {
        get { erased.fetchOffset }
        set { erased.fetchOffset = newValue }
    }
    /// The key path whose value names each object's section (may cross to-one relationships).
    ///
    /// The first sort descriptor should order by it, as with `NSFetchedResultsController`; a request without
    /// one is sorted by it first.
    public var sectionNameKeyPath: String? {
        get { erased.sectionNameKeyPath }
        set { erased.sectionNameKeyPath = newValue }
    }
    /// The to-one relationships whose related objects each fetched object carries, by name (`["category"]`);
    /// see ``AnyFetchRequest/relationshipKeyPathsForPrefetching``. Records name them by key path with
    /// ``prefetching(_:)``.
    public var relationshipKeyPathsForPrefetching: [String] {
        get { erased.relationshipKeyPathsForPrefetching }
        set { erased.relationshipKeyPathsForPrefetching = newValue }
    }
}

extension FetchRequest where Result == Row {
    /// Creates a request for rows of the entity named `entity`.
    public init(
        entity: String, predicate: FetchPredicate = .true, sortDescriptors: [FetchSortDescriptor] = [],
        fetchLimit: Int? = nil, fetchOffset: Int = 0, sectionNameKeyPath: String? = nil,
        propertiesToFetch: [String]? = nil
    ) {
        self.init(
            erased: AnyFetchRequest(
                entity: entity, predicate: predicate, sortDescriptors: sortDescriptors, fetchLimit: fetchLimit,
                fetchOffset: fetchOffset, sectionNameKeyPath: sectionNameKeyPath,
                propertiesToFetch: propertiesToFetch))
    }

    /// Wraps an erased request, whose results are rows whatever its entity.
    public init(_ erased: AnyFetchRequest) {
        self.init(erased: erased)
    }

    /// The entity's name.
    public var entityName: String {
        get { erased.entityName }
        set { erased.entityName = newValue }
    }

    /// The attributes to fetch (`nil`: all). The primary key is always fetched.
    public var propertiesToFetch: [String]? {
        get { erased.propertiesToFetch }
        set { erased.propertiesToFetch = newValue }
    }
}

extension FetchRequest where Result: Record {
    /// Creates a request for records of `type`, with a format-string predicate and sort descriptors by key.
    ///
    /// ```swift
    /// FetchRequest(Todo.self, predicate: try FetchPredicate(format: "done == NO"),
    ///              sortDescriptors: [.ascending("position")])
    /// ```
    public init(
        _ type: Result.Type = Result.self, predicate: FetchPredicate = .true,
        sortDescriptors: [FetchSortDescriptor] = [], fetchLimit: Int? = nil, fetchOffset: Int = 0,
        sectionNameKeyPath: String? = nil
    ) {
        self.init(
            erased: AnyFetchRequest(
                entity: Result.entity.name, predicate: predicate, sortDescriptors: sortDescriptors,
                fetchLimit: fetchLimit, fetchOffset: fetchOffset, sectionNameKeyPath: sectionNameKeyPath))
    }
}

extension FetchRequest where Result: Record {
    /// The same request for records of `Result`: a dynamic request retyped once its entity is known.
    ///
    /// ```swift
    /// let todos = try FetchRequest<Todo>(rowsRequest.erased)
    /// ```
    ///
    /// - Throws: ``FetchKitError/Code/recordMapping`` when the request's entity does not store `Result`.
    public init(_ erased: AnyFetchRequest) throws {
        guard erased.entityName == Result.entity.name else {
            throw FetchKitError.recordMapping(
                entity: erased.entityName,
                detail: "a request for \(SafeText.quoted(erased.entityName)) cannot fetch \(Result.self), "
                    + "whose entity is \(SafeText.quoted(Result.entity.name))")
        }
        self.init(erased: erased)
    }
}
