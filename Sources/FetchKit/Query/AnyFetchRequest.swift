/// A fetch request with its result type erased: what stores, backends and the engine receive.
///
/// Apps write a ``FetchRequest``; its ``FetchRequest/erased`` form is this.
public struct AnyFetchRequest: Sendable, Hashable {
    /// The request's fields, in one allocation that copies share: a request is kept by each of thousands of
    /// controllers, by the router's table of shared requests and by every plan made from it, and a copy is
    /// then one reference rather than eighty bytes.
    private var storage: Storage

    /// The entity's name.
    public var entityName: String {
        get { storage.fields.entityName }
        set { update { $0.entityName = newValue } }
    }
    /// Which objects: ``FetchPredicate/true`` for all.
    public var predicate: FetchPredicate {
        get { storage.fields.predicate }
        set { update { $0.predicate = newValue } }
    }
    /// The order; the primary key is always appended as the last key.
    public var sortDescriptors: [FetchSortDescriptor] {
        get { storage.fields.sortDescriptors }
        set { update { $0.sortDescriptors = newValue } }
    }
    /// At most this many objects (`nil`: no limit).
    public var fetchLimit: Int? {
        get { storage.fields.fetchLimit }
        set { update { $0.fetchLimit = newValue } }
    }
    /// Skip this many objects first.
    public var fetchOffset: Int {
        get { storage.fields.fetchOffset }
        set { update { $0.fetchOffset = newValue } }
    }
    /// The key path whose value names each object's section (may cross to-one relationships).
    /// The first sort descriptor should order by it, as with `NSFetchedResultsController`.
    public var sectionNameKeyPath: String? {
        get { storage.fields.sectionNameKeyPath }
        set { update { $0.sectionNameKeyPath = newValue } }
    }
    /// The attributes to fetch (`nil`: all). The primary key is always fetched.
    public var propertiesToFetch: [String]? {
        get { storage.fields.propertiesToFetch }
        set { update { $0.propertiesToFetch = newValue } }
    }

    /// The to-one relationships whose related objects each fetched object carries (as Core Data's
    /// `relationshipKeyPathsForPrefetching`): a fetch adds each related entity's primary key and attributes as
    /// columns named by key path (`category.id`, `category.name`), kept live as the related rows change.
    public var relationshipKeyPathsForPrefetching: [String] {
        get { storage.fields.relationshipKeyPathsForPrefetching }
        set { update { $0.relationshipKeyPathsForPrefetching = newValue } }
    }

    /// Creates a request.
    public init(
        entity: String, predicate: FetchPredicate = .true, sortDescriptors: [FetchSortDescriptor] = [],
        fetchLimit: Int? = nil, fetchOffset: Int = 0, sectionNameKeyPath: String? = nil,
        propertiesToFetch: [String]? = nil
    ) {
        storage = Storage(
            Fields(
                entityName: entity, predicate: predicate, sortDescriptors: sortDescriptors, fetchLimit: fetchLimit,
                fetchOffset: fetchOffset, sectionNameKeyPath: sectionNameKeyPath, propertiesToFetch: propertiesToFetch))
    }
}

extension AnyFetchRequest {
    /// The fields of a request.
    private struct Fields: Sendable, Hashable {
        var entityName: String
        var predicate: FetchPredicate
        var sortDescriptors: [FetchSortDescriptor]
        var fetchLimit: Int?
        var fetchOffset: Int
        var sectionNameKeyPath: String?
        var propertiesToFetch: [String]?
        var relationshipKeyPathsForPrefetching: [String] = []
    }

    /// The shared, immutable fields of one or more copies of a request.
    private final class Storage: Sendable {
        let fields: Fields

        init(_ fields: Fields) {
            self.fields = fields
        }
    }

    /// Changes a field: the copy gets fields of its own.
    ///
    /// - Complexity: O(1) plus copying the fields' references.
    private mutating func update(_ change: (inout Fields) -> Void) {
        var fields = storage.fields
        change(&fields)
        storage = Storage(fields)
    }

    public static func == (lhs: AnyFetchRequest, rhs: AnyFetchRequest) -> Bool {
        lhs.storage === rhs.storage || lhs.storage.fields == rhs.storage.fields
    }

    public func hash(into hasher: inout Hasher) {
        storage.fields.hash(into: &hasher)
    }
}
