import Foundation

extension FetchRequest where Result: Record {
    /// Creates a request from a `#Predicate`, Foundation sort descriptors and a section key path.
    ///
    /// ```swift
    /// let request = try FetchRequest<Todo>(
    ///     predicate: #Predicate { !$0.done }, sortBy: [SortDescriptor(\.position)], fetchLimit: 20)
    /// ```
    ///
    /// - Throws: ``FetchKitError/Code/unsupported`` for a `#Predicate` construct without an SQL meaning;
    ///   ``FetchKitError/Code/unknownKey`` naming a key path that is not a stored attribute or a to-one
    ///   relationship's attribute.
    public init(
        _ type: Result.Type = Result.self, predicate: Predicate<Result>, sortBy: [SortDescriptor<Result>] = [],
        sectionBy: PartialKeyPath<Result>? = nil, fetchLimit: Int? = nil, fetchOffset: Int = 0
    ) throws {
        self.init(
            predicate: try FetchPredicate(predicate), sortDescriptors: try sortBy.map(FetchSortDescriptor.init),
            fetchLimit: fetchLimit, fetchOffset: fetchOffset,
            sectionNameKeyPath: try sectionBy.map { try Result.storedKey(for: $0) })
    }

    /// Creates a request for every record of the type, in the order of Foundation sort descriptors.
    ///
    /// ```swift
    /// let byCategory = try FetchRequest<Todo>(sortBy: [SortDescriptor(\.position)], sectionBy: \.category?.name)
    /// ```
    ///
    /// - Throws: ``FetchKitError/Code/unknownKey`` naming a key path that is not a stored attribute or a
    ///   to-one relationship's attribute.
    public init(
        _ type: Result.Type = Result.self, sortBy: [SortDescriptor<Result>],
        sectionBy: PartialKeyPath<Result>? = nil, fetchLimit: Int? = nil, fetchOffset: Int = 0
    ) throws {
        self.init(
            sortDescriptors: try sortBy.map(FetchSortDescriptor.init), fetchLimit: fetchLimit,
            fetchOffset: fetchOffset, sectionNameKeyPath: try sectionBy.map { try Result.storedKey(for: $0) })
    }

    /// Narrows the request to the records `predicate` also matches.
    ///
    /// - Throws: ``FetchKitError/Code/unsupported`` for a construct without an SQL meaning.
    public mutating func filter(_ predicate: Predicate<Result>) throws {
        let added = try FetchPredicate(predicate)
        self.predicate = self.predicate == .true ? added : self.predicate && added
    }
}

extension FetchSortDescriptor {
    /// The sort descriptor a Foundation `SortDescriptor` of records stands for.
    ///
    /// Strings sort in the store's binary order whatever the descriptor's comparator (on Linux Foundation has
    /// no other); sort case-insensitively with ``FetchSortDescriptor/ascending(_:caseInsensitive:)``.
    ///
    /// - Throws: ``FetchKitError/Code/unknownKey`` when the descriptor sorts by a closure or by a key path
    ///   that is not a stored attribute.
    public init<R: Record>(_ descriptor: SortDescriptor<R>) throws {
        guard let keyPath = descriptor.keyPath else {
            throw FetchKitError.unknownKey(
                "a SortDescriptor without a key path", entity: R.entity.name, offset: nil)
        }
        self.init(try R.storedKey(for: keyPath), ascending: descriptor.order == .forward)
    }
}
